"""The terminal client's screens: pure render functions, key bindings and the Application.

``render`` turns the client model into lines of styled text for a given width and height,
``keys`` maps keystrokes to protocol messages from the legal actions the server sent, and
``app`` wires both into a full-screen prompt_toolkit Application.
"""
