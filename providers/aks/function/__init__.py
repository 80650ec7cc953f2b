"""Composition function for the AKSCluster XR."""
