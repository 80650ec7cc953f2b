"""Composition function for the GKECluster XR."""
