"""Browser transports for peer-to-peer play (browser only)."""
