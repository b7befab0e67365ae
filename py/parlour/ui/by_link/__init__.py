"""Play by link: the app's side of it, its screens, saves and seats."""
