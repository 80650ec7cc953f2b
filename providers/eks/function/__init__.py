"""Composition function for the EKSCluster XR of the Modelplane cluster contract."""
