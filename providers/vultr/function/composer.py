"""Composes a VultrCluster: a VKE cluster, node pools, workload plumbing, a cluster-info ConfigMap.

Vultr Kubernetes Engine brings its own network, so nothing network-shaped is composed. A VKE
cluster is created with one node pool inside it, which is the system pool; every requested pool is
a separate NodePools resource that needs the cluster's Vultr ID, so it is composed once the cluster
is observed and kept once it exists. The Vultr provider reads its ProviderConfig itself: the
function never asks for it.
"""

from typing import Any

from crossplane.function import resource
from crossplane.function.proto.v1 import run_function_pb2 as fnv1

VKE = "kubernetes.vultr.m.upbound.io/v1alpha1"
KUBERNETES = "kubernetes.m.crossplane.io/v1alpha1"
HELM = "helm.m.crossplane.io/v1beta1"
CORE = "v1"

# Ready as soon as composed: in-cluster resources have nothing to wait for in Vultr, and the
# cluster-info ConfigMap is a plain object of the control plane.
READY_WHEN_COMPOSED = (
    "cluster-info",
    "provider-config-helm",
    "provider-config-kubernetes",
    "storage-class-rwx",
)

DEFAULT_CREDENTIALS = {"kind": "ClusterProviderConfig", "name": "default"}
STORAGE_CLASS = "modelplane-rwx"
KUBERNETES_VERSION = "v1.31.2+1"

# The pool a VKE cluster is created with: it hosts add-ons and controllers, so GPU pools can
# scale to zero. Vultr takes it inside the cluster resource.
SYSTEM_POOL: dict[str, Any] = {
    "name": "system",
    "plan": "vc2-4c-8gb",
    "nodeCount": 1,
    "minNodeCount": 1,
    "maxNodeCount": 3,
}


class InvalidSpecError(ValueError):
    """The XR's spec cannot be composed; the function reports it as a fatal result."""


class Composer:
    """Computes the desired state of one VultrCluster from its observed state."""

    def __init__(self, req: fnv1.RunFunctionRequest, rsp: fnv1.RunFunctionResponse) -> None:
        """Read the XR (observed resources are read on demand); reject a spec that cannot compose.

        Nothing is required from the ProviderConfig, so there is no requirement to read.
        """
        self.rsp = rsp
        self.xr = resource.struct_to_dict(req.observed.composite.resource)
        self.name: str = self.xr["metadata"]["name"]
        self.namespace: str = self.xr["metadata"].get("namespace", "")
        self.kubeconfig_secret = f"{self.name}-kubeconfig"
        spec = self.xr.get("spec", {})
        self.region: str = spec.get("region", "")
        self.pools: list[dict[str, Any]] = spec.get("nodePools", [])
        self.credentials: dict[str, str] = {**DEFAULT_CREDENTIALS, **spec.get("credentials", {})}
        self.observed_resources = req.observed.resources
        self.desired: dict[str, dict[str, Any]] = {}
        self._validate()

    def _validate(self) -> None:
        """Fail early on specs that would otherwise compose broken or colliding resources."""
        if not self.region:
            raise InvalidSpecError("spec.region is required")
        names = [pool.get("name") for pool in self.pools]
        for pool in self.pools:
            if not pool.get("name") or not pool.get("plan"):
                raise InvalidSpecError("every spec.nodePools[] needs a name and a plan")
            if "gpu" in pool and not pool["gpu"].get("type"):
                raise InvalidSpecError(f"node pool {pool['name']}: gpu.type is required")
        if len(set(names)) != len(names) or SYSTEM_POOL["name"] in names:
            raise InvalidSpecError("node pool names must be unique and must not be 'system'")

    def compose(self) -> None:
        """Compose every concern, then report status and readiness."""
        self.compose_cluster()
        self.compose_node_pools()
        self.compose_provider_configs()
        self.compose_storage_class()
        self.compose_cluster_info()
        self.write_status()
        self.mark_readiness()

    def compose_cluster(self) -> None:
        """The VKE cluster with the system pool inline; it writes the workload kubeconfig Secret."""
        self._desire(
            "cluster",
            self._cloud(
                VKE,
                "Kubernetes",
                {
                    "region": self.region,
                    "label": self.name,
                    "version": KUBERNETES_VERSION,
                    "nodePools": self._pool_profile(SYSTEM_POOL),
                },
                writeConnectionSecretToRef={"name": self.kubeconfig_secret},
            ),
        )

    def compose_node_pools(self) -> None:
        """One NodePools resource per spec pool, once the cluster is observed.

        A pool's clusterIdSelector resolves to the cluster's Vultr ID, which exists only once the
        cluster does; a pool already observed is kept even if the cluster drops out of observed
        state.
        """
        for pool in self.pools:
            key = f"nodepool-{pool['name']}"
            if "cluster" in self.observed_resources or key in self.observed_resources:
                self._desire(key, self._node_pool(pool))

    def _node_pool(self, pool: dict[str, Any]) -> dict[str, Any]:
        """A node pool attached to the cluster."""
        for_provider = self._pool_profile(pool)
        for_provider["clusterIdSelector"] = {"matchControllerRef": True}
        return self._cloud(VKE, "NodePools", for_provider)

    def _pool_profile(self, pool: dict[str, Any]) -> dict[str, Any]:
        """What the inline pool and a NodePools resource share: plan, size, scaling, node labels."""
        labels = {"modelplane.ai/pool": pool["name"]}
        if "gpu" in pool:
            labels["modelplane.ai/gpu"] = pool["gpu"]["type"]
        profile: dict[str, Any] = {
            "label": pool["name"],
            # The plan fixes the machine and its GPUs (e.g. vcg-a16-2c-8g-2vram).
            "plan": pool["plan"],
            "nodeQuantity": pool.get("nodeCount", 1),
            "labels": labels,
        }
        # The autoscaler needs an upper bound; without one the pool keeps a fixed size.
        if "maxNodeCount" in pool:
            profile["autoScaler"] = True
            profile["minNodes"] = pool.get("minNodeCount", 0)
            profile["maxNodes"] = pool["maxNodeCount"]
        return profile

    def compose_provider_configs(self) -> None:
        """Kubernetes and Helm ProviderConfigs that reach the workload cluster by kubeconfig."""
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
        """The Vultr File System RWX StorageClass; VFS is made per volume, so nothing gates it."""
        manifest = {
            "apiVersion": "storage.k8s.io/v1",
            "kind": "StorageClass",
            "metadata": {"name": STORAGE_CLASS},
            "provisioner": "block.csi.vultr.com",
            "parameters": {"block_type": "vfs", "disk_type": "nvme"},
        }
        self._desire(
            "storage-class-rwx",
            {
                "apiVersion": KUBERNETES,
                "kind": "Object",
                "metadata": {"name": f"{self.name}-storage-class-rwx"},
                "spec": {
                    "forProvider": {"manifest": manifest},
                    "providerConfigRef": {"kind": "ProviderConfig", "name": self.name},
                    # Never Delete: the class dies with the cluster.
                    "managementPolicies": ["Observe", "Create", "Update", "LateInitialize"],
                    "readiness": {"policy": "SuccessfulCreate"},
                },
            },
        )

    def compose_cluster_info(self) -> None:
        """A ConfigMap beside the XR telling in-namespace tooling where the cluster runs.

        Composed directly (no provider-kubernetes Object): it lives in the control plane, not in
        the workload cluster.
        """
        self._desire(
            "cluster-info",
            {
                "apiVersion": CORE,
                "kind": "ConfigMap",
                "metadata": {"name": f"{self.name}-cluster-info"},
                "data": {
                    "region": self.region,
                    "version": KUBERNETES_VERSION,
                    "kubeconfigSecret": self.kubeconfig_secret,
                },
            },
        )

    def write_status(self) -> None:
        """Tell consumers where the kubeconfig Secret is and which StorageClass to use."""
        status: dict[str, Any] = {
            "secrets": [
                {"type": "Kubeconfig", "name": self.kubeconfig_secret, "key": "kubeconfig"}
            ],
        }
        if "storage-class-rwx" in self.desired:
            status["cache"] = {"storageClassName": STORAGE_CLASS}
        resource.update(self.rsp.desired.composite, {"status": status})

    def mark_readiness(self) -> None:
        """Ready: plain and in-cluster objects on compose, Vultr resources when observed Ready."""
        for key in sorted(self.desired):
            if key in READY_WHEN_COMPOSED or self._observed_ready(key):
                self.rsp.desired.resources[key].ready = fnv1.READY_TRUE

    def _cloud(
        self, api_version: str, kind: str, for_provider: dict[str, Any], **spec: Any
    ) -> dict[str, Any]:
        """A Vultr managed resource body; every one uses the XR's credentials."""
        return {
            "apiVersion": api_version,
            "kind": kind,
            "spec": {
                "forProvider": for_provider,
                "providerConfigRef": self._credentials_ref(),
                **spec,
            },
        }

    def _credentials_ref(self) -> dict[str, str]:
        """The providerConfigRef that spec.credentials names (default: ClusterProviderConfig)."""
        return {"kind": self.credentials["kind"], "name": self.credentials["name"]}

    def _observed_ready(self, key: str) -> bool:
        """Whether the observed resource reports condition Ready=True."""
        return resource.get_condition(self.observed_resources.get(key), "Ready").status == "True"

    def _desire(self, key: str, body: dict[str, Any]) -> None:
        """Add `body` to the desired resources under `key`."""
        self.desired[key] = body
        resource.update(self.rsp.desired.resources[key], body)
