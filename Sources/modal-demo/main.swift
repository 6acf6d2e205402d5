print("modal-demo")
