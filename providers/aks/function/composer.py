"""Composes an AKSCluster: resource group, network, AKS cluster, node pools, workload plumbing.

Some resources need something Azure creates first: user node pools need the cluster (the system
pool is the cluster's own default node pool, so it needs nothing), the RWX StorageClass needs the
resource group's Azure name. Each is composed once that is observed and kept once it exists, so a
gap in observed state never deletes anything. The workload identity is the service-principal
Secret the Azure ProviderConfig names; only its status entry waits on that ProviderConfig.
"""

from typing import Any

from crossplane.function import request, resource, response
from crossplane.function.proto.v1 import run_function_pb2 as fnv1

AZURE = "azure.m.upbound.io/v1beta1"
NETWORK = "network.azure.m.upbound.io/v1beta1"
CONTAINERSERVICE = "containerservice.azure.m.upbound.io/v1beta1"
AZURE_PROVIDER_CONFIG = "azure.m.upbound.io/v1beta1"
KUBERNETES = "kubernetes.m.crossplane.io/v1alpha1"
HELM = "helm.m.crossplane.io/v1beta1"

# In-cluster resources have nothing to wait for in Azure: they are ready as soon as composed.
READY_WHEN_COMPOSED = ("provider-config-helm", "provider-config-kubernetes", "storage-class-rwx")

REQUIREMENT = "azure-provider-config"
DEFAULT_CREDENTIALS = {"kind": "ClusterProviderConfig", "name": "default"}
IDENTITY_SECRET_TYPE = "AzureClientCredentials"
EXTERNAL_NAME = "crossplane.io/external-name"
STORAGE_CLASS = "modelplane-rwx"
VNET_CIDR = "10.0.0.0/16"
SUBNET_CIDR = "10.0.0.0/20"

# The cluster's default node pool: AKS needs one to create a cluster, and it hosts add-ons and
# controllers so GPU pools can scale to zero. It lives inside the cluster resource, not beside it.
SYSTEM_POOL: dict[str, Any] = {
    "name": "system",
    "vmSize": "Standard_D4s_v5",
    "nodeCount": 1,
    "minNodeCount": 1,
    "maxNodeCount": 3,
    "zones": ["1"],
}

# Azure names a Linux node pool with at most 12 lowercase letters and digits.
POOL_NAME_LIMIT = 12


class InvalidSpecError(ValueError):
    """The XR's spec cannot be composed; the function reports it as a fatal result."""


class Composer:
    """Computes the desired state of one AKSCluster from its observed state."""

    def __init__(self, req: fnv1.RunFunctionRequest, rsp: fnv1.RunFunctionResponse) -> None:
        """Read the XR, observed resources and credentials; reject a spec that cannot compose."""
        self.rsp = rsp
        self.xr = resource.struct_to_dict(req.observed.composite.resource)
        self.name: str = self.xr["metadata"]["name"]
        self.namespace: str = self.xr["metadata"].get("namespace", "")
        self.kubeconfig_secret = f"{self.name}-kubeconfig"
        spec = self.xr.get("spec", {})
        self.location: str = spec.get("location", "")
        self.pools: list[dict[str, Any]] = spec.get("nodePools", [])
        # AKSCluster names its credentials spec.providerConfig, after Azure's own term.
        self.credentials: dict[str, str] = {**DEFAULT_CREDENTIALS, **spec.get("providerConfig", {})}
        self.observed_resources = req.observed.resources
        self._observed_dicts: dict[str, dict[str, Any]] = {}
        self.desired: dict[str, dict[str, Any]] = {}
        # Absent (first call) and empty (nothing matched) both mean: no credentials yet.
        self.provider_config = request.get_required_resource(req, REQUIREMENT)
        self._validate()

    def _validate(self) -> None:
        """Fail early on specs that would otherwise compose broken or colliding resources."""
        if not self.location:
            raise InvalidSpecError("spec.location is required")
        names = [pool.get("name") for pool in self.pools]
        for pool in self.pools:
            if not pool.get("name") or not pool.get("vmSize"):
                raise InvalidSpecError("every spec.nodePools[] needs a name and a vmSize")
            name = pool["name"]
            if len(name) > POOL_NAME_LIMIT or not name.isalnum() or not name.islower():
                raise InvalidSpecError(
                    f"node pool {name}: Azure pool names are at most {POOL_NAME_LIMIT} "
                    "lowercase letters and digits"
                )
            if "gpu" in pool and not pool["gpu"].get("type"):
                raise InvalidSpecError(f"node pool {name}: gpu.type is required")
        if len(set(names)) != len(names) or SYSTEM_POOL["name"] in names:
            raise InvalidSpecError("node pool names must be unique and must not be 'system'")

    def compose(self) -> None:
        """Compose every concern, then report status and readiness."""
        self.require_credentials()
        self.compose_resource_group()
        self.compose_network()
        self.compose_cluster()
        self.compose_node_pools()
        self.compose_provider_configs()
        self.compose_storage_class()
        self.write_status()
        self.mark_readiness()

    def require_credentials(self) -> None:
        """Ask for the Azure ProviderConfig every call: its Secret is the workload identity."""
        kind, name = self.credentials["kind"], self.credentials["name"]
        response.require_resources(
            self.rsp,
            REQUIREMENT,
            AZURE_PROVIDER_CONFIG,
            kind,
            match_name=name,
            namespace=self.namespace if kind == "ProviderConfig" else None,
        )
        if self.provider_config is None:
            response.normal(self.rsp, f"Waiting for Azure {kind} {name}")

    def compose_resource_group(self) -> None:
        """The resource group every Azure resource of this cluster lives in."""
        self._desire(
            "resource-group", self._cloud(AZURE, "ResourceGroup", {"location": self.location})
        )

    def compose_network(self) -> None:
        """A dedicated virtual network and the subnet the nodes live in."""
        self._desire(
            "network",
            self._cloud(
                NETWORK,
                "VirtualNetwork",
                {
                    "location": self.location,
                    "addressSpace": [VNET_CIDR],
                    "resourceGroupNameSelector": {"matchControllerRef": True},
                },
            ),
        )
        self._desire(
            "subnet",
            self._cloud(
                NETWORK,
                "Subnet",
                {
                    "addressPrefixes": [SUBNET_CIDR],
                    "resourceGroupNameSelector": {"matchControllerRef": True},
                    "virtualNetworkNameSelector": {"matchControllerRef": True},
                },
            ),
        )

    def compose_cluster(self) -> None:
        """The AKS cluster, the system pool as its default node pool; it writes the kubeconfig."""
        default_pool = self._pool_profile(SYSTEM_POOL)
        default_pool["name"] = SYSTEM_POOL["name"]
        default_pool["vnetSubnetIdSelector"] = {"matchControllerRef": True}
        self._desire(
            "cluster",
            self._cloud(
                CONTAINERSERVICE,
                "KubernetesCluster",
                {
                    "location": self.location,
                    "resourceGroupNameSelector": {"matchControllerRef": True},
                    "dnsPrefix": self.name,
                    "identity": {"type": "SystemAssigned"},
                    # Azure CNI so pods get addresses in the subnet; Azure Files NFS needs it.
                    "networkProfile": {"networkPlugin": "azure"},
                    "defaultNodePool": default_pool,
                },
                writeConnectionSecretToRef={"name": self.kubeconfig_secret},
            ),
        )

    def compose_node_pools(self) -> None:
        """One KubernetesClusterNodePool per spec pool, once the cluster is observed.

        A pool's kubernetesClusterIdSelector resolves to the cluster's Azure ID, which exists only
        once the cluster does; a pool already observed is kept even if the cluster drops out of
        observed state.
        """
        for pool in self.pools:
            key = f"nodepool-{pool['name']}"
            if "cluster" in self.observed_resources or key in self.observed_resources:
                self._desire(key, self._node_pool(pool))

    def _node_pool(self, pool: dict[str, Any]) -> dict[str, Any]:
        """A user node pool attached to the cluster."""
        for_provider = self._pool_profile(pool)
        for_provider["kubernetesClusterIdSelector"] = {"matchControllerRef": True}
        for_provider["mode"] = "User"
        return self._cloud(CONTAINERSERVICE, "KubernetesClusterNodePool", for_provider)

    def _pool_profile(self, pool: dict[str, Any]) -> dict[str, Any]:
        """What a default node pool and a node pool share: size, zones, scaling, node labels."""
        labels = {"modelplane.ai/pool": pool["name"]}
        if "gpu" in pool:
            labels["modelplane.ai/gpu"] = pool["gpu"]["type"]
        profile: dict[str, Any] = {
            # The VM size fixes the GPU count (e.g. Standard_NC24ads_A100_v4 has one A100).
            "vmSize": pool["vmSize"],
            "nodeCount": pool.get("nodeCount", 1),
            "zones": pool.get("zones", ["1"]),
            "nodeLabels": labels,
        }
        # Autoscaling needs an upper bound; without one the pool keeps a fixed size.
        if "maxNodeCount" in pool:
            profile["autoScalingEnabled"] = True
            profile["minCount"] = pool.get("minNodeCount", 0)
            profile["maxCount"] = pool["maxNodeCount"]
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
        """The Azure Files NFS StorageClass, once Azure has named the resource group it uses.

        The name is the observed resource group's external name; a StorageClass already observed
        is kept with the name it was created with.
        """
        resource_group = self._observed_fact(
            "resource-group", "metadata", "annotations", EXTERNAL_NAME
        ) or self._observed_fact(
            "storage-class-rwx", "spec", "forProvider", "manifest", "parameters", "resourceGroup"
        )
        if not resource_group:
            return
        manifest = {
            "apiVersion": "storage.k8s.io/v1",
            "kind": "StorageClass",
            "metadata": {"name": STORAGE_CLASS},
            "provisioner": "file.csi.azure.com",
            "parameters": {
                "protocol": "nfs",
                "skuName": "Premium_LRS",
                "resourceGroup": resource_group,
            },
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
        """Ready: in-cluster resources once composed, Azure resources once observed Ready."""
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
        """An Azure managed resource body; every one uses the XR's credentials."""
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
        """The providerConfigRef that spec.providerConfig names (default: ClusterProviderConfig)."""
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
