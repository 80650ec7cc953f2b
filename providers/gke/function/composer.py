"""Composes a GKECluster: network, GKE cluster, node pools, node identity, workload plumbing.

Some resources need a fact only GCP can assign first: node pools need the cluster, the IAM
binding needs the service account's email (and the project from the credentials), the RWX
StorageClass needs the network's external name. Each is composed once its fact is observed
and, once it exists, kept from observed state if the fact goes missing, so a transient gap in
observed state never deletes anything.
"""

from string import ascii_lowercase
from typing import Any

from crossplane.function import request, resource, response
from crossplane.function.proto.v1 import run_function_pb2 as fnv1

COMPUTE = "compute.gcp.m.upbound.io/v1beta1"
CONTAINER = "container.gcp.m.upbound.io/v1beta1"
CLOUDPLATFORM = "cloudplatform.gcp.m.upbound.io/v1beta1"
GCP_PROVIDER_CONFIG = "gcp.m.upbound.io/v1beta1"
KUBERNETES = "kubernetes.m.crossplane.io/v1alpha1"
HELM = "helm.m.crossplane.io/v1beta1"

# In-cluster resources have nothing to wait for in GCP: they are ready as soon as composed.
READY_WHEN_COMPOSED = ("provider-config-helm", "provider-config-kubernetes", "storage-class-rwx")

REQUIREMENT = "gcp-provider-config"
DEFAULT_CREDENTIALS = {"kind": "ClusterProviderConfig", "name": "default"}
EXTERNAL_NAME = "crossplane.io/external-name"
STORAGE_CLASS = "modelplane-rwx"
NODE_ROLE = "roles/container.defaultNodeServiceAccount"
SUBNET_CIDR = "10.0.0.0/16"

# Injected into every cluster: hosts add-ons and controllers, so GPU pools can scale to zero.
SYSTEM_POOL: dict[str, Any] = {
    "name": "system",
    "machineType": "e2-standard-4",
    "nodeCount": 1,
    "minNodeCount": 1,
    "maxNodeCount": 3,
}


class InvalidSpecError(ValueError):
    """The XR's spec cannot be composed; the function reports it as a fatal result."""


class Composer:
    """Computes the desired state of one GKECluster from its observed state."""

    def __init__(self, req: fnv1.RunFunctionRequest, rsp: fnv1.RunFunctionResponse) -> None:
        """Read the XR, observed resources and credentials; reject a spec that cannot compose."""
        self.rsp = rsp
        xr = resource.struct_to_dict(req.observed.composite.resource)
        self.name: str = xr["metadata"]["name"]
        # Connection Secrets: the cluster's kubeconfig and the node service account's JSON key.
        self.kubeconfig_secret = f"{self.name}-kubeconfig"
        self.identity_secret = f"{self.name}-gcp-credentials"
        self.namespace: str = xr["metadata"].get("namespace", "")
        spec = xr.get("spec", {})
        self.region: str = spec.get("region", "")
        self.pools: list[dict[str, Any]] = spec.get("nodePools", [])
        self.credentials: dict[str, str] = {**DEFAULT_CREDENTIALS, **spec.get("credentials", {})}
        self.observed_resources = req.observed.resources
        self._observed_dicts: dict[str, dict[str, Any]] = {}
        self.desired: dict[str, dict[str, Any]] = {}
        # Absent (first call) and empty (nothing matched) both mean: no credentials yet.
        self.provider_config: dict[str, Any] | None = request.get_required_resource(
            req, REQUIREMENT
        )
        self._validate()

    def _validate(self) -> None:
        """Fail early on specs that would otherwise compose broken or colliding resources."""
        if not self.region:
            raise InvalidSpecError("spec.region is required")
        names = [pool.get("name") for pool in self.pools]
        for pool in self.pools:
            if not pool.get("name") or not pool.get("machineType"):
                raise InvalidSpecError("every spec.nodePools[] needs a name and a machineType")
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
        self.compose_identity()
        self.compose_provider_configs()
        self.compose_storage_class()
        self.write_status()
        self.mark_readiness()

    def require_credentials(self) -> None:
        """Ask for the GCP ProviderConfig every call: its projectID scopes the IAM binding."""
        kind, name = self.credentials["kind"], self.credentials["name"]
        response.require_resources(
            self.rsp,
            REQUIREMENT,
            GCP_PROVIDER_CONFIG,
            kind,
            match_name=name,
            namespace=self.namespace if kind == "ProviderConfig" else None,
        )
        if self.provider_config is None:
            response.normal(self.rsp, f"Waiting for GCP {kind} {name}")

    def compose_network(self) -> None:
        """A dedicated VPC with one regional subnet, so clusters never share address space."""
        self._desire("network", self._cloud(COMPUTE, "Network", {"autoCreateSubnetworks": False}))
        self._desire(
            "subnet",
            self._cloud(
                COMPUTE,
                "Subnetwork",
                {
                    "networkSelector": {"matchControllerRef": True},
                    "region": self.region,
                    "ipCidrRange": SUBNET_CIDR,
                },
            ),
        )

    def compose_cluster(self) -> None:
        """A regional cluster whose default pool is dropped: the function owns every pool."""
        self._desire(
            "cluster",
            self._cloud(
                CONTAINER,
                "Cluster",
                {
                    "location": self.region,
                    "removeDefaultNodePool": True,
                    "initialNodeCount": 1,
                    # The XR owns the cluster's lifecycle; GCP's guard would block deletion.
                    "deletionProtection": False,
                    # The RWX StorageClass provisions through the Filestore CSI driver.
                    "addonsConfig": {"gcpFilestoreCsiDriverConfig": {"enabled": True}},
                    "networkSelector": {"matchControllerRef": True},
                    "subnetworkSelector": {"matchControllerRef": True},
                },
                writeConnectionSecretToRef={"name": self.kubeconfig_secret},
            ),
        )

    def compose_node_pools(self) -> None:
        """The system pool plus one NodePool per spec pool, once the cluster is observed.

        A NodePool selects its cluster, which only resolves once the cluster exists; a pool
        already observed is kept even if the cluster drops out of observed state.
        """
        for pool in [SYSTEM_POOL, *self.pools]:
            key = f"nodepool-{pool['name']}"
            if "cluster" in self.observed_resources or key in self.observed_resources:
                self._desire(key, self._node_pool(pool))

    def _node_pool(self, pool: dict[str, Any]) -> dict[str, Any]:
        """A NodePool spread over the pool's zones, labelled so workloads can target it."""
        labels = {"modelplane.ai/pool": pool["name"]}
        node_config: dict[str, Any] = {"machineType": pool["machineType"], "labels": labels}
        if "gpu" in pool:
            labels["modelplane.ai/gpu"] = pool["gpu"]["type"]
            node_config["guestAccelerator"] = [
                {"type": pool["gpu"]["type"], "count": pool["gpu"].get("count", 1)}
            ]
        for_provider: dict[str, Any] = {
            "clusterSelector": {"matchControllerRef": True},
            "location": self.region,
            "nodeLocations": self._zones(int(pool.get("zones", 1))),
            "nodeCount": pool.get("nodeCount", 1),
            "nodeConfig": node_config,
        }
        # Autoscaling needs an upper bound; without one the pool keeps a fixed size.
        if "maxNodeCount" in pool:
            for_provider["autoscaling"] = {
                "minNodeCount": pool.get("minNodeCount", 0),
                "maxNodeCount": pool["maxNodeCount"],
            }
        return self._cloud(CONTAINER, "NodePool", for_provider)

    def compose_identity(self) -> None:
        """A node service account, its key (the identity Secret) and its node role binding."""
        self._desire(
            "service-account",
            self._cloud(CLOUDPLATFORM, "ServiceAccount", {"displayName": f"{self.name} GKE nodes"}),
        )
        self._desire(
            "service-account-key",
            self._cloud(
                CLOUDPLATFORM,
                "ServiceAccountKey",
                {"serviceAccountIdSelector": {"matchControllerRef": True}},
                writeConnectionSecretToRef={"name": self.identity_secret},
            ),
        )
        # The binding needs the email GCP assigns the service account and the credentials'
        # project; a binding already observed is kept with the member and project it was
        # created with.
        email = self._observed_fact("service-account", "status", "atProvider", "email")
        project = (self.provider_config or {}).get("spec", {}).get("projectID")
        member = f"serviceAccount:{email}" if email else None
        if not (member and project):
            member = self._observed_fact("iam-binding", "spec", "forProvider", "member")
            project = self._observed_fact("iam-binding", "spec", "forProvider", "project")
        if not (member and project):
            return
        self._desire(
            "iam-binding",
            self._cloud(
                CLOUDPLATFORM,
                "ProjectIAMMember",
                {"project": project, "role": NODE_ROLE, "member": member},
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
        """The Filestore RWX StorageClass, once GCP has assigned the network's name.

        Filestore must be told the network by its GCP name, the observed network's external
        name; a StorageClass already observed is kept with the network it was created with.
        """
        network = self._observed_fact(
            "network", "metadata", "annotations", EXTERNAL_NAME
        ) or self._observed_fact(
            "storage-class-rwx", "spec", "forProvider", "manifest", "parameters", "network"
        )
        if not network:
            return
        manifest = {
            "apiVersion": "storage.k8s.io/v1",
            "kind": "StorageClass",
            "metadata": {"name": STORAGE_CLASS},
            "provisioner": "filestore.csi.storage.gke.io",
            "parameters": {"tier": "standard", "network": network},
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
        if "service-account-key" in self.desired:
            secrets.append(
                {
                    "type": "GoogleApplicationCredentials",
                    "name": self.identity_secret,
                    "key": "private_key",
                }
            )
        status: dict[str, Any] = {"secrets": secrets}
        if "storage-class-rwx" in self.desired:
            status["cache"] = {"storageClassName": STORAGE_CLASS}
        resource.update(self.rsp.desired.composite, {"status": status})

    def mark_readiness(self) -> None:
        """Ready: in-cluster resources once composed, cloud resources once observed Ready."""
        for key in sorted(self.desired):
            if key in READY_WHEN_COMPOSED or self._observed_ready(key):
                self.rsp.desired.resources[key].ready = fnv1.READY_TRUE

    def _cloud(
        self, api_version: str, kind: str, for_provider: dict[str, Any], **spec: Any
    ) -> dict[str, Any]:
        """A GCP managed resource body; every one uses the XR's credentials."""
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

    def _zones(self, count: int) -> list[str]:
        """The first `count` zones of the region: us-central1-a, us-central1-b, ..."""
        return [f"{self.region}-{letter}" for letter in ascii_lowercase[:count]]

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
