"""Composition function for the VultrCluster XR."""
