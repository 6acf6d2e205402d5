print("modal-bench")
