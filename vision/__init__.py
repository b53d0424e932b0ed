"""The camera board reader: camera frames in, settled ``BoardSnapshot``s out.

OpenCV is imported here (and in the camera's lab, ``lab/``, which makes the models in
``vision/models``) and nowhere else in the project.
"""
