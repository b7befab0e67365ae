"""Live play online: the app's side of it, its screens, saves and the network choice."""
