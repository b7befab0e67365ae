"""Fair play without a server: commitments, joint randomness and a portable RNG (pure)."""
