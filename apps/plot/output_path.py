"""The PNG output of the plotting commands: checked before anything is drawn, so a typo never
replaces one of the user's inputs, and a bad path gives one clear line instead of a traceback."""

import os


def _same_file(a, b):
    if os.path.exists(a) and os.path.exists(b):
        return os.path.samefile(a, b)
    return os.path.normpath(os.path.abspath(a)) == os.path.normpath(os.path.abspath(b))


def output_problem(output, inputs):
    """Why `output` cannot take the PNG, or None: it must not be one of `inputs`, must end in .png
    (the file is PNG data whatever the name says), and its folder must exist."""
    for path in inputs:
        if _same_file(output, path):
            return f"{output}: is also an input ({path}); it would be overwritten"
    if os.path.splitext(output)[1].lower() != ".png":
        return f"{output}: the plot is written as PNG; name the output *.png"
    folder = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(folder):
        return f"{output}: the folder {folder} does not exist"
    if os.path.isdir(output):
        return f"{output}: is a folder"
    return None
