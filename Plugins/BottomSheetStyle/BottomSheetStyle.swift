import ModalKit
