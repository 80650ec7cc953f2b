"""Composes an EKSCluster XR into AWS resources and the workload cluster's in-cluster plumbing.

Each call sees the world as Crossplane last observed it and returns the full desired state. Anything
that needs something AWS creates first (the cluster, the EFS file system ID) is composed only once
that thing is observed, and kept from then on so a missing observation never deletes it.
"""

import json
from typing import Any

from crossplane.function import resource
from crossplane.function.proto.v1 import run_function_pb2 as fnv1

EC2 = "ec2.aws.m.upbound.io/v1beta1"
IAM = "iam.aws.m.upbound.io/v1beta1"
EKS = "eks.aws.m.upbound.io/v1beta1"
EFS = "efs.aws.m.upbound.io/v1beta1"
KUBERNETES = "kubernetes.m.crossplane.io/v1alpha1"
HELM = "helm.m.crossplane.io/v1beta1"

DEFAULT_CREDENTIALS = {"kind": "ClusterProviderConfig", "name": "default"}
EXTERNAL_NAME = "crossplane.io/external-name"
ROLE_LABEL = "modelplane.ai/role"
ZONE_LABEL = "modelplane.ai/zone"
STORAGE_CLASS = "modelplane-rwx"

# EKS refuses a control plane in fewer than two availability zones, so there are always two subnets.
VPC_CIDR = "10.0.0.0/16"
SUBNETS = (("a", "10.0.0.0/18"), ("b", "10.0.64.0/18"))  # (zone letter, CIDR), in zone order

# The pool every cluster gets for system workloads, shaped like an entry of spec.nodePools.
SYSTEM_POOL: dict[str, Any] = {
    "name": "system",
    "instanceType": "m6i.large",
    "nodeCount": 1,
    "minNodeCount": 1,
    "maxNodeCount": 3,
}

# What every spec.nodePools entry must say; zones (default 1) and gpu are optional.
POOL_FIELDS = ("name", "instanceType", "nodeCount", "minNodeCount", "maxNodeCount")

# AWS managed policies each role needs: the control plane's, and the nodes' (kubelet, VPC CNI,
# image pulls, and the EFS CSI driver that backs the RWX StorageClass).
CLUSTER_POLICIES = ["arn:aws:iam::aws:policy/AmazonEKSClusterPolicy"]
NODE_POLICIES = [
    "arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly",
    "arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy",
    "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy",
    "arn:aws:iam::aws:policy/service-role/AmazonEFSCSIDriverPolicy",
]

# In-cluster resources have nothing to wait for in AWS: they are ready as soon as they are composed.
READY_WHEN_COMPOSED = ("provider-config-helm", "provider-config-kubernetes", "storage-class-rwx")


class InvalidSpecError(ValueError):
    """The XR's spec cannot be composed; the function answers with a fatal result."""


class Composer:
    """Builds the desired state of one EKSCluster from its spec and the observed composed resources."""

    def __init__(self, req: fnv1.RunFunctionRequest, rsp: fnv1.RunFunctionResponse) -> None:
        """Read the XR (observed resources are read on demand); reject a spec that cannot be composed."""
        self.rsp = rsp
        self.xr = resource.struct_to_dict(req.observed.composite.resource)
        self.observed_resources = req.observed.resources
        self._observed_dicts: dict[str, dict[str, Any]] = {}
        self.desired: dict[str, dict[str, Any]] = {}
        self.name: str = self.xr["metadata"]["name"]
        self.namespace: str = self.xr["metadata"].get("namespace", "")
        # The Secret ClusterAuth writes and both workload ProviderConfigs read.
        self.kubeconfig_secret = f"{self.name}-kubeconfig"
        spec = self.xr.get("spec", {})
        self.region: str = spec.get("region", "")
        self.pools: list[dict[str, Any]] = spec.get("nodePools", [])
        self.credentials: dict[str, str] = {**DEFAULT_CREDENTIALS, **spec.get("credentials", {})}
        self._validate()

    def _validate(self) -> None:
        """Fail early on what would otherwise produce broken or colliding resources."""
        if not self.region:
            raise InvalidSpecError("spec.region is required")
        for pool in self.pools:
            missing = [field for field in POOL_FIELDS if field not in pool]
            if missing:
                raise InvalidSpecError(
                    f"spec.nodePools entry {pool.get('name', '?')!r} lacks {', '.join(missing)}"
                )
        names = [pool["name"] for pool in self.pools]
        if len(set(names)) != len(names) or SYSTEM_POOL["name"] in names:
            raise InvalidSpecError(
                f"spec.nodePools names must be unique and not {SYSTEM_POOL['name']!r}"
            )

    def compose(self) -> None:
        """Compose every concern, then report status and readiness from what was composed."""
        self.compose_network()
        self.compose_identity()
        self.compose_cluster()
        self.compose_node_pools()
        self.compose_filesystem()
        self.compose_provider_configs()
        self.compose_storage_class()
        self.write_status()
        self.mark_readiness()

    def compose_network(self) -> None:
        """A VPC and one subnet per availability zone; subnets carry their zone so pools can pick them."""
        self._desire(
            "network",
            self._cloud(
                EC2,
                "VPC",
                {
                    "region": self.region,
                    "cidrBlock": VPC_CIDR,
                    "enableDnsSupport": True,
                    "enableDnsHostnames": True,
                },
            ),
        )
        for letter, cidr in SUBNETS:
            self._desire(
                f"subnet-{letter}",
                self._cloud(
                    EC2,
                    "Subnet",
                    {
                        "region": self.region,
                        "vpcIdSelector": {"matchControllerRef": True},
                        "availabilityZone": self._zone(letter),
                        "cidrBlock": cidr,
                    },
                    labels={ZONE_LABEL: self._zone(letter)},
                ),
            )

    def compose_identity(self) -> None:
        """The IAM roles EKS and the nodes act as, labelled so the cluster and node groups select them."""
        for role, service, policies in (
            ("cluster", "eks.amazonaws.com", CLUSTER_POLICIES),
            ("node", "ec2.amazonaws.com", NODE_POLICIES),
        ):
            self._desire(
                f"iam-role-{role}",
                self._cloud(
                    IAM,
                    "Role",
                    {
                        "assumeRolePolicy": self._assume_role_policy(service),
                        "managedPolicyArns": policies,
                    },
                    labels={ROLE_LABEL: role},
                ),
            )

    def _assume_role_policy(self, service: str) -> str:
        """The trust policy letting an AWS service assume a role, as the JSON string IAM expects."""
        return json.dumps(
            {
                "Version": "2012-10-17",
                "Statement": [
                    {
                        "Effect": "Allow",
                        "Principal": {"Service": service},
                        "Action": "sts:AssumeRole",
                    }
                ],
            },
            sort_keys=True,
        )

    def compose_cluster(self) -> None:
        """The EKS control plane, and the ClusterAuth that writes its kubeconfig (Cluster does not)."""
        self._desire(
            "cluster",
            self._cloud(
                EKS,
                "Cluster",
                {
                    "region": self.region,
                    "roleArnSelector": {
                        "matchControllerRef": True,
                        "matchLabels": {ROLE_LABEL: "cluster"},
                    },
                    "vpcConfig": {"subnetIdSelector": {"matchControllerRef": True}},
                },
            ),
        )
        self._desire(
            "cluster-auth",
            self._cloud(
                EKS,
                "ClusterAuth",
                {
                    "region": self.region,
                    "clusterNameSelector": {"matchControllerRef": True},
                },
                writeConnectionSecretToRef={"name": self.kubeconfig_secret},
            ),
        )

    def compose_node_pools(self) -> None:
        """The system pool plus one NodeGroup per spec.nodePools entry, once the cluster is observed.

        A NodeGroup selects its cluster, which only resolves once the cluster exists; a pool already
        observed is kept even if the cluster briefly drops out of observed state.
        """
        for pool in [SYSTEM_POOL, *self.pools]:
            key = f"nodepool-{pool['name']}"
            if "cluster" in self.observed_resources or key in self.observed_resources:
                self._desire(key, self._node_pool(pool))

    def _node_pool(self, pool: dict[str, Any]) -> dict[str, Any]:
        """A NodeGroup for one pool: labelled with its pool (and GPU type), in its first `zones` subnets."""
        labels = {"modelplane.ai/pool": pool["name"]}
        gpu = pool.get("gpu")
        if gpu:
            labels["modelplane.ai/gpu"] = gpu["type"]
        return self._cloud(
            EKS,
            "NodeGroup",
            {
                "region": self.region,
                "clusterNameSelector": {"matchControllerRef": True},
                "nodeRoleArnSelector": {
                    "matchControllerRef": True,
                    "matchLabels": {ROLE_LABEL: "node"},
                },
                "subnetIdSelector": self._subnet_selector(int(pool.get("zones", 1))),
                "scalingConfig": {
                    "desiredSize": pool["nodeCount"],
                    "minSize": pool["minNodeCount"],
                    "maxSize": pool["maxNodeCount"],
                },
                "instanceTypes": [pool["instanceType"]],
                "amiType": "AL2023_x86_64_NVIDIA" if gpu else "AL2023_x86_64_STANDARD",
                "labels": labels,
            },
        )

    def _subnet_selector(self, zones: int) -> dict[str, Any]:
        """Select the first `zones` subnets: all of them from two zones on, else only `subnet-a` by its zone."""
        selector: dict[str, Any] = {"matchControllerRef": True}
        if zones < len(SUBNETS):
            selector["matchLabels"] = {ZONE_LABEL: self._zone(SUBNETS[0][0])}
        return selector

    def compose_filesystem(self) -> None:
        """The EFS file system behind the RWX StorageClass."""
        self._desire(
            "efs",
            self._cloud(
                EFS,
                "FileSystem",
                {
                    "region": self.region,
                    "encrypted": True,
                    "performanceMode": "generalPurpose",
                },
            ),
        )

    def compose_provider_configs(self) -> None:
        """Kubernetes and Helm ProviderConfigs named after the XR, reading the ClusterAuth kubeconfig."""
        credentials = {
            "source": "Secret",
            "secretRef": {
                "namespace": self.namespace,
                "name": self.kubeconfig_secret,
                "key": "kubeconfig",
            },
        }
        for key, api_version in (
            ("provider-config-kubernetes", KUBERNETES),
            ("provider-config-helm", HELM),
        ):
            self._desire(
                key,
                {
                    "apiVersion": api_version,
                    "kind": "ProviderConfig",
                    "metadata": {"name": self.name},
                    "spec": {"credentials": credentials},
                },
            )

    def compose_storage_class(self) -> None:
        """The RWX StorageClass, once AWS has assigned the EFS file system ID it points at.

        The ID is the observed `efs` external name; a StorageClass already observed is kept with the
        ID it was created with.
        """
        file_system_id = self._observed_fact(
            "efs", "metadata", "annotations", EXTERNAL_NAME
        ) or self._observed_fact(
            "storage-class-rwx", "spec", "forProvider", "manifest", "parameters", "fileSystemId"
        )
        if not file_system_id:
            return
        self._desire(
            "storage-class-rwx",
            {
                "apiVersion": KUBERNETES,
                "kind": "Object",
                "metadata": {"name": f"{self.name}-storage-class-rwx"},
                "spec": {
                    "forProvider": {
                        "manifest": {
                            "apiVersion": "storage.k8s.io/v1",
                            "kind": "StorageClass",
                            "metadata": {"name": STORAGE_CLASS},
                            "provisioner": "efs.csi.aws.com",
                            "parameters": {
                                "provisioningMode": "efs-ap",
                                "fileSystemId": file_system_id,
                                "directoryPerms": "700",
                            },
                        }
                    },
                    "providerConfigRef": {"kind": "ProviderConfig", "name": self.name},
                    "managementPolicies": ["Observe", "Create", "Update", "LateInitialize"],
                    "readiness": {"policy": "SuccessfulCreate"},
                },
            },
        )

    def write_status(self) -> None:
        """Tell consumers where the kubeconfig lives and, once composed, which StorageClass to use."""
        status: dict[str, Any] = {
            "secrets": [
                {"type": "Kubeconfig", "name": self.kubeconfig_secret, "key": "kubeconfig"}
            ],
        }
        if "storage-class-rwx" in self.desired:
            status["cache"] = {"storageClassName": STORAGE_CLASS}
        resource.update(self.rsp.desired.composite, {"status": status})

    def mark_readiness(self) -> None:
        """Ready: in-cluster resources as soon as composed, AWS resources once observed Ready."""
        for key in sorted(self.desired):
            if key in READY_WHEN_COMPOSED or self._observed_ready(key):
                self.rsp.desired.resources[key].ready = fnv1.READY_TRUE

    def _cloud(
        self,
        api_version: str,
        kind: str,
        for_provider: dict[str, Any],
        labels: dict[str, str] | None = None,
        **spec: Any,
    ) -> dict[str, Any]:
        """An AWS managed resource authenticated with the XR's credentials."""
        body: dict[str, Any] = {
            "apiVersion": api_version,
            "kind": kind,
            "spec": {
                "forProvider": for_provider,
                "providerConfigRef": self._credentials_ref(),
                **spec,
            },
        }
        if labels:
            body["metadata"] = {"labels": labels}
        return body

    def _credentials_ref(self) -> dict[str, str]:
        """The providerConfigRef that spec.credentials names (default: ClusterProviderConfig)."""
        return {"kind": self.credentials["kind"], "name": self.credentials["name"]}

    def _zone(self, letter: str) -> str:
        """The availability zone `<region><letter>`."""
        return f"{self.region}{letter}"

    def _desire(self, key: str, body: dict[str, Any]) -> None:
        """Add `body` to the desired resources under `key`."""
        self.desired[key] = body
        resource.update(self.rsp.desired.resources[key], body)

    def _observed(self, key: str) -> dict[str, Any] | None:
        """The observed composed resource under `key`, if it exists.

        Converted to a dict on first use: a reconcile reads only a few observed resources, and
        converting every one on every call would dominate the function's time.
        """
        observed = self.observed_resources.get(key)
        if observed is None:
            return None
        if key not in self._observed_dicts:
            self._observed_dicts[key] = resource.struct_to_dict(observed.resource)
        return self._observed_dicts[key]

    def _observed_fact(self, key: str, *path: str) -> Any:
        """A value inside an observed composed resource, or None while it (or the resource) is absent."""
        value: Any = self._observed(key)
        for step in path:
            if not isinstance(value, dict):
                return None
            value = value.get(step)
        return value

    def _observed_ready(self, key: str) -> bool:
        """Whether the observed resource reports condition Ready=True."""
        return resource.get_condition(self.observed_resources.get(key), "Ready").status == "True"
