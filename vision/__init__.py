"""Reading real boards from camera frames (numpy/OpenCV), and the synthetic board renderer."""
