"""Composes a NebiusCluster: network, MK8s cluster, node groups, shared filesystem, workload plumbing.

Some resources need something Nebius creates first: node groups need the cluster, the RWX
StorageClass needs the filesystem's ID. Each is composed once that is observed and kept once it
exists, so a gap in observed state never deletes anything. The cluster's identity is the
service-account key Secret named by the Nebius ProviderConfig; only the status entry for it waits
on that ProviderConfig, every resource is composed without it.
"""

from typing import Any

from crossplane.function import request, resource, response
from crossplane.function.proto.v1 import run_function_pb2 as fnv1

VPC = "vpc.nebius.m.upbound.io/v1alpha1"
MK8S = "mk8s.nebius.m.upbound.io/v1alpha1"
COMPUTE = "compute.nebius.m.upbound.io/v1alpha1"
NEBIUS_PROVIDER_CONFIG = "nebius.m.upbound.io/v1beta1"
KUBERNETES = "kubernetes.m.crossplane.io/v1alpha1"
HELM = "helm.m.crossplane.io/v1beta1"

# In-cluster resources have nothing to wait for in Nebius: they are ready as soon as composed.
READY_WHEN_COMPOSED = ("provider-config-helm", "provider-config-kubernetes", "storage-class-rwx")

REQUIREMENT = "nebius-provider-config"
DEFAULT_CREDENTIALS = {"kind": "ClusterProviderConfig", "name": "default"}
IDENTITY_SECRET_TYPE = "NebiusServiceAccountCredentials"
EXTERNAL_NAME = "crossplane.io/external-name"
STORAGE_CLASS = "modelplane-rwx"
KUBERNETES_VERSION = "1.31"
# Node images for GPU platforms come with these NVIDIA drivers preinstalled.
GPU_DRIVERS_PRESET = "cuda12"

# Injected into every cluster: hosts add-ons and controllers, so GPU pools can scale to zero.
SYSTEM_POOL: dict[str, Any] = {
    "name": "system",
    "platform": "cpu-d3",
    "preset": "4vcpu-16gb",
    "nodeCount": 1,
    "minNodeCount": 1,
    "maxNodeCount": 3,
}


class InvalidSpecError(ValueError):
    """The XR's spec cannot be composed; the function reports it as a fatal result."""


class Composer:
    """Computes the desired state of one NebiusCluster from its observed state."""

    def __init__(self, req: fnv1.RunFunctionRequest, rsp: fnv1.RunFunctionResponse) -> None:
        """Read the XR, observed resources and credentials; reject a spec that cannot compose."""
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
        self._observed_dicts: dict[str, dict[str, Any]] = {}
        self.desired: dict[str, dict[str, Any]] = {}
        # Absent (first call) and empty (nothing matched) both mean: no credentials yet.
        self.provider_config = request.get_required_resource(req, REQUIREMENT)
        self._validate()

    def _validate(self) -> None:
        """Fail early on specs that would otherwise compose broken or colliding resources.

        Nebius places resources in the project its ProviderConfig targets, and a project lives
        in one region, so spec.region is checked but not sent. Node groups are regional, so
        zones is checked and then has no effect.
        """
        if not self.region:
            raise InvalidSpecError("spec.region is required")
        names = [pool.get("name") for pool in self.pools]
        for pool in self.pools:
            if not pool.get("name") or not pool.get("platform") or not pool.get("preset"):
                raise InvalidSpecError(
                    "every spec.nodePools[] needs a name, a platform and a preset"
                )
            zones = pool.get("zones", 1)
            if isinstance(zones, bool) or not isinstance(zones, int | float) or zones < 1:
                raise InvalidSpecError(f"node pool {pool['name']}: zones must be at least 1")
            if "gpu" in pool and not pool["gpu"].get("type"):
                raise InvalidSpecError(f"node pool {pool['name']}: gpu.type is required")
        if len(set(names)) != len(names) or SYSTEM_POOL["name"] in names:
            raise InvalidSpecError("node pool names must be unique and must not be 'system'")

    def compose(self) -> None:
        """Compose every concern, then report status and readiness."""
        self.require_credentials()
        self.compose_network()
        self.compose_cluster()
        self.compose_node_pools()
        self.compose_filesystem()
        self.compose_provider_configs()
        self.compose_storage_class()
        self.write_status()
        self.mark_readiness()

    def require_credentials(self) -> None:
        """Ask for the Nebius ProviderConfig every call: its Secret is the cluster's identity."""
        kind, name = self.credentials["kind"], self.credentials["name"]
        response.require_resources(
            self.rsp,
            REQUIREMENT,
            NEBIUS_PROVIDER_CONFIG,
            kind,
            match_name=name,
            namespace=self.namespace if kind == "ProviderConfig" else None,
        )
        if self.provider_config is None:
            response.normal(self.rsp, f"Waiting for Nebius {kind} {name}")

    def compose_network(self) -> None:
        """A dedicated VPC network and the subnet the control plane and nodes live in."""
        self._desire("network", self._cloud(VPC, "Network", {"name": self.name}))
        self._desire(
            "subnet",
            self._cloud(
                VPC,
                "Subnet",
                {"name": self.name, "networkIdSelector": {"matchControllerRef": True}},
            ),
        )

    def compose_cluster(self) -> None:
        """The MK8s cluster; it writes the workload kubeconfig Secret."""
        self._desire(
            "cluster",
            self._cloud(
                MK8S,
                "Cluster",
                {
                    "name": self.name,
                    "controlPlane": {
                        "subnetIdSelector": {"matchControllerRef": True},
                        "version": KUBERNETES_VERSION,
                        # Crossplane reaches the workload cluster from outside the VPC.
                        "endpoints": {"publicEndpoint": {}},
                    },
                },
                writeConnectionSecretToRef={"name": self.kubeconfig_secret},
            ),
        )

    def compose_node_pools(self) -> None:
        """The system pool plus one NodeGroup per spec pool, once the cluster is observed.

        A NodeGroup's parent is the cluster's Nebius ID, which exists only once the cluster
        does; a pool already observed is kept even if the cluster drops out of observed state.
        """
        for pool in [SYSTEM_POOL, *self.pools]:
            key = f"nodepool-{pool['name']}"
            if "cluster" in self.observed_resources or key in self.observed_resources:
                self._desire(key, self._node_pool(pool))

    def _node_pool(self, pool: dict[str, Any]) -> dict[str, Any]:
        """A NodeGroup for one pool, its nodes labelled so workloads can target it."""
        labels = {"modelplane.ai/pool": pool["name"]}
        template: dict[str, Any] = {
            "metadata": {"labels": labels},
            "resources": {"platform": pool["platform"], "preset": pool["preset"]},
        }
        if "gpu" in pool:
            labels["modelplane.ai/gpu"] = pool["gpu"]["type"]
            # The preset already fixes the GPU count (e.g. 1gpu-16vcpu-96gb).
            template["gpuSettings"] = {"driversPreset": GPU_DRIVERS_PRESET}
        for_provider: dict[str, Any] = {
            "name": f"{self.name}-{pool['name']}",
            "parentIdSelector": {"matchControllerRef": True},
            "template": template,
        }
        # Nebius takes either a fixed size or autoscaling bounds, never both.
        if "maxNodeCount" in pool:
            for_provider["autoscaling"] = {
                "minNodeCount": pool.get("minNodeCount", 0),
                "maxNodeCount": pool["maxNodeCount"],
            }
        else:
            for_provider["fixedNodeCount"] = pool.get("nodeCount", 1)
        return self._cloud(MK8S, "NodeGroup", for_provider)

    def compose_filesystem(self) -> None:
        """The shared network filesystem behind the RWX StorageClass."""
        self._desire(
            "filesystem",
            self._cloud(
                COMPUTE,
                "Filesystem",
                {"name": f"{self.name}-rwx", "type": "NETWORK_SSD", "sizeGibibytes": 1024},
            ),
        )

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
        """The RWX StorageClass, once Nebius has assigned the filesystem ID it mounts.

        The ID is the observed filesystem's external name; a StorageClass already observed is
        kept with the ID it was created with.
        """
        filesystem_id = self._observed_fact(
            "filesystem", "metadata", "annotations", EXTERNAL_NAME
        ) or self._observed_fact(
            "storage-class-rwx", "spec", "forProvider", "manifest", "parameters", "filesystemId"
        )
        if not filesystem_id:
            return
        manifest = {
            "apiVersion": "storage.k8s.io/v1",
            "kind": "StorageClass",
            "metadata": {"name": STORAGE_CLASS},
            "provisioner": "csi.nebius.ai",
            "parameters": {"filesystemId": filesystem_id},
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

    def write_status(self) -> None:
        """Tell consumers where the connection Secrets are and which StorageClass to use."""
        secrets = [{"type": "Kubeconfig", "name": self.kubeconfig_secret, "key": "kubeconfig"}]
        identity = self._identity_secret()
        if identity:
            secrets.append(identity)
        status: dict[str, Any] = {"secrets": secrets}
        if "storage-class-rwx" in self.desired:
            status["cache"] = {"storageClassName": STORAGE_CLASS}
        resource.update(self.rsp.desired.composite, {"status": status})

    def mark_readiness(self) -> None:
        """Ready: in-cluster resources once composed, Nebius resources once observed Ready."""
        for key in sorted(self.desired):
            if key in READY_WHEN_COMPOSED or self._observed_ready(key):
                self.rsp.desired.resources[key].ready = fnv1.READY_TRUE

    def _identity_secret(self) -> dict[str, str] | None:
        """The identity Secret entry: from the ProviderConfig, else the one already published.

        Falling back keeps the entry stable while the ProviderConfig is briefly unavailable;
        an entry without a Secret name is never published.
        """
        credentials = (self.provider_config or {}).get("spec", {}).get("credentials", {})
        published = [
            entry
            for entry in self.xr.get("status", {}).get("secrets", [])
            if entry.get("type") == IDENTITY_SECRET_TYPE
        ]
        for ref in [credentials.get("secretRef", {}), *published]:
            if ref.get("name"):
                return {
                    "type": IDENTITY_SECRET_TYPE,
                    "name": ref["name"],
                    "key": ref.get("key", ""),
                }
        return None

    def _cloud(
        self, api_version: str, kind: str, for_provider: dict[str, Any], **spec: Any
    ) -> dict[str, Any]:
        """A Nebius managed resource body; every one uses the XR's credentials."""
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
        """A field of an observed resource (a cloud-assigned fact), or None while unknown."""
        value: Any = self._observed(key)
        for field in path:
            if not isinstance(value, dict):
                return None
            value = value.get(field)
        return value

    def _observed_ready(self, key: str) -> bool:
        """Whether the observed resource reports condition Ready=True."""
        return resource.get_condition(self.observed_resources.get(key), "Ready").status == "True"

    def _desire(self, key: str, body: dict[str, Any]) -> None:
        """Add `body` to the desired resources under `key`."""
        self.desired[key] = body
        resource.update(self.rsp.desired.resources[key], body)
