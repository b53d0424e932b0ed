"""The camera board reader: camera frames in, settled ``BoardSnapshot``s out.

OpenCV is imported here and nowhere else in the project.
"""
