"""Composition function for the NebiusCluster XR (Nebius Managed Kubernetes)."""
