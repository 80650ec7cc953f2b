"""Drives RunFunction with crafted requests and checks the contract's promises."""

import copy

import pytest
from crossplane.function.proto.v1 import run_function_pb2 as fnv1

from builders import (
    GPU_POOL,
    NAME,
    NAMESPACE,
    desired,
    messages,
    observed,
    provider_config,
    run,
    status,
    xr,
)

CLOUD_KEYS = {"network", "subnet", "cluster", "filesystem"}
FIRST_STEP_KEYS = CLOUD_KEYS | {"provider-config-kubernetes", "provider-config-helm"}
KUBECONFIG_ENTRY = {"type": "Kubeconfig", "name": f"{NAME}-kubeconfig", "key": "kubeconfig"}
IDENTITY_ENTRY = {
    "type": "NebiusServiceAccountCredentials",
    "name": "nebius-sa",
    "key": "credentials.json",
}
DEFAULT_REF = {"kind": "ClusterProviderConfig", "name": "default"}


def world(*, fs_external_name: str | None = "computefilesystem-e00abc", ready: bool = True) -> dict:
    """Observed state after the cloud resources were created."""
    resources = {key: observed(key, ready=ready) for key in CLOUD_KEYS}
    resources["filesystem"] = observed("filesystem", ready=ready, external_name=fs_external_name)
    return resources


# First step and gating.


def test_first_step_composes_everything_without_gates() -> None:
    rsp = run(xr(), required=[provider_config()])
    assert set(desired(rsp)) == FIRST_STEP_KEYS
    assert messages(rsp) == []


def test_cloud_resources_use_kinds_selectors_and_credentials() -> None:
    got = desired(run(xr(), required=[provider_config()]))
    kinds = {key: (got[key]["apiVersion"], got[key]["kind"]) for key in CLOUD_KEYS}
    assert kinds == {
        "network": ("vpc.nebius.m.upbound.io/v1alpha1", "Network"),
        "subnet": ("vpc.nebius.m.upbound.io/v1alpha1", "Subnet"),
        "cluster": ("mk8s.nebius.m.upbound.io/v1alpha1", "Cluster"),
        "filesystem": ("compute.nebius.m.upbound.io/v1alpha1", "Filesystem"),
    }
    for key in CLOUD_KEYS:
        assert got[key]["spec"]["providerConfigRef"] == DEFAULT_REF
    assert got["subnet"]["spec"]["forProvider"]["networkIdSelector"] == {"matchControllerRef": True}
    control_plane = got["cluster"]["spec"]["forProvider"]["controlPlane"]
    assert control_plane["subnetIdSelector"] == {"matchControllerRef": True}
    assert control_plane["version"] == "1.31"
    assert got["cluster"]["spec"]["writeConnectionSecretToRef"] == {"name": f"{NAME}-kubeconfig"}
    fs = got["filesystem"]["spec"]["forProvider"]
    assert (fs["type"], fs["sizeGibibytes"]) == ("NETWORK_SSD", 1024)


def test_workload_provider_configs_read_the_kubeconfig() -> None:
    got = desired(run(xr()))
    secret_ref = {"namespace": NAMESPACE, "name": f"{NAME}-kubeconfig", "key": "kubeconfig"}
    for key, api_version in (
        ("provider-config-kubernetes", "kubernetes.m.crossplane.io/v1alpha1"),
        ("provider-config-helm", "helm.m.crossplane.io/v1beta1"),
    ):
        assert got[key]["apiVersion"] == api_version
        assert got[key]["kind"] == "ProviderConfig"
        assert got[key]["metadata"] == {"name": NAME}
        assert got[key]["spec"]["credentials"] == {"source": "Secret", "secretRef": secret_ref}


def test_node_pools_appear_once_the_cluster_is_observed() -> None:
    got = desired(run(xr(), world()))
    for key in ("nodepool-system", "nodepool-gpu"):
        assert got[key]["apiVersion"] == "mk8s.nebius.m.upbound.io/v1alpha1"
        assert got[key]["kind"] == "NodeGroup"
        assert got[key]["spec"]["forProvider"]["parentIdSelector"] == {"matchControllerRef": True}
        assert got[key]["spec"]["providerConfigRef"] == DEFAULT_REF


def test_node_pools_are_kept_once_observed() -> None:
    resources = {"nodepool-gpu": observed("nodepool-gpu")}
    got = desired(run(xr(), resources))
    assert "nodepool-gpu" in got
    assert "nodepool-system" not in got


def test_removed_pool_is_not_composed() -> None:
    got = desired(run(xr(nodePools=[]), world()))
    assert "nodepool-gpu" not in got
    assert "nodepool-system" in got


def test_storage_class_waits_for_the_filesystem_id() -> None:
    got = desired(run(xr(), world(fs_external_name=None)))
    assert "storage-class-rwx" not in got


def test_storage_class_carries_the_filesystem_id() -> None:
    obj = desired(run(xr(), world()))["storage-class-rwx"]
    assert obj["apiVersion"] == "kubernetes.m.crossplane.io/v1alpha1"
    assert obj["kind"] == "Object"
    assert obj["metadata"] == {"name": f"{NAME}-storage-class-rwx"}
    assert obj["spec"]["forProvider"]["manifest"] == {
        "apiVersion": "storage.k8s.io/v1",
        "kind": "StorageClass",
        "metadata": {"name": "modelplane-rwx"},
        "provisioner": "csi.nebius.ai",
        "parameters": {"filesystemId": "computefilesystem-e00abc"},
    }
    assert obj["spec"]["providerConfigRef"] == {"kind": "ProviderConfig", "name": NAME}
    assert obj["spec"]["managementPolicies"] == ["Observe", "Create", "Update", "LateInitialize"]
    assert obj["spec"]["readiness"] == {"policy": "SuccessfulCreate"}


def test_storage_class_is_kept_once_observed() -> None:
    first = desired(run(xr(), world()))["storage-class-rwx"]
    resources = world(fs_external_name=None)
    resources["storage-class-rwx"] = observed("storage-class-rwx", first)
    assert desired(run(xr(), resources))["storage-class-rwx"] == first


# Node pool shape.


def test_gpu_pool_labels_machine_and_drivers() -> None:
    pool = desired(run(xr(), world()))["nodepool-gpu"]["spec"]["forProvider"]
    template = pool["template"]
    labels = {"modelplane.ai/pool": "gpu", "modelplane.ai/gpu": "nvidia-l40s"}
    assert template["metadata"]["labels"] == labels
    assert template["resources"] == {"platform": "gpu-l40s-a", "preset": "1gpu-16vcpu-96gb"}
    assert template["gpuSettings"] == {"driversPreset": "cuda12"}
    assert pool["autoscaling"] == {"minNodeCount": 0, "maxNodeCount": 4}
    assert "fixedNodeCount" not in pool


def test_system_pool_is_a_labelled_autoscaled_cpu_pool() -> None:
    pool = desired(run(xr(), world()))["nodepool-system"]["spec"]["forProvider"]
    assert pool["template"]["metadata"]["labels"] == {"modelplane.ai/pool": "system"}
    assert pool["template"]["resources"] == {"platform": "cpu-d3", "preset": "4vcpu-16gb"}
    assert "gpuSettings" not in pool["template"]
    assert pool["autoscaling"] == {"minNodeCount": 1, "maxNodeCount": 3}
    assert "fixedNodeCount" not in pool


def test_pool_without_bounds_has_a_fixed_size() -> None:
    cpu = {"name": "cpu", "nodeCount": 3, "platform": "cpu-d3", "preset": "8vcpu-32gb"}
    pool = desired(run(xr(nodePools=[cpu]), world()))["nodepool-cpu"]["spec"]["forProvider"]
    assert pool["fixedNodeCount"] == 3
    assert pool["template"]["metadata"]["labels"] == {"modelplane.ai/pool": "cpu"}


def test_zones_are_accepted_and_ignored() -> None:
    one_zone = {**GPU_POOL, "zones": 1}
    many = desired(run(xr(), world()))["nodepool-gpu"]
    one = desired(run(xr(nodePools=[one_zone]), world()))["nodepool-gpu"]
    assert many == one


# Readiness.


def test_readiness_follows_observed_ready_and_composition() -> None:
    rsp = run(xr(), world())
    ready = {key: r.ready for key, r in rsp.desired.resources.items()}
    assert all(ready[key] == fnv1.READY_TRUE for key in CLOUD_KEYS)
    assert ready["provider-config-kubernetes"] == fnv1.READY_TRUE
    assert ready["provider-config-helm"] == fnv1.READY_TRUE
    assert ready["storage-class-rwx"] == fnv1.READY_TRUE
    # Node pools were composed this step and are not observed yet.
    assert ready["nodepool-gpu"] == fnv1.READY_UNSPECIFIED


def test_not_ready_cloud_resources_are_left_unspecified() -> None:
    rsp = run(xr(), world(ready=False))
    assert all(rsp.desired.resources[key].ready == fnv1.READY_UNSPECIFIED for key in CLOUD_KEYS)
    assert rsp.desired.resources["provider-config-helm"].ready == fnv1.READY_TRUE


# Status.


def test_status_publishes_kubeconfig_identity_and_cache() -> None:
    got = status(run(xr(), world(), required=[provider_config()]))
    assert got["secrets"] == [KUBECONFIG_ENTRY, IDENTITY_ENTRY]
    assert got["cache"] == {"storageClassName": "modelplane-rwx"}


def test_status_has_no_cache_before_the_storage_class() -> None:
    got = status(run(xr(), required=[provider_config()]))
    assert "cache" not in got


def test_status_falls_back_to_the_published_identity() -> None:
    previous = {"secrets": [KUBECONFIG_ENTRY, IDENTITY_ENTRY]}
    got = status(run(xr(status=previous), required=[]))
    assert got["secrets"] == [KUBECONFIG_ENTRY, IDENTITY_ENTRY]


def test_status_never_publishes_an_identity_without_a_name() -> None:
    previous = {"secrets": [KUBECONFIG_ENTRY, {**IDENTITY_ENTRY, "name": ""}]}
    got = status(run(xr(status=previous), required=[provider_config(secret=None)]))
    assert got["secrets"] == [KUBECONFIG_ENTRY]


# Credentials.


def test_requirement_defaults_to_the_default_cluster_provider_config() -> None:
    selector = run(xr()).requirements.resources["nebius-provider-config"]
    assert selector.api_version == "nebius.m.upbound.io/v1beta1"
    assert selector.kind == "ClusterProviderConfig"
    assert selector.match_name == "default"
    assert not selector.HasField("namespace")


def test_custom_provider_config_is_namespaced_and_referenced() -> None:
    credentials = {"kind": "ProviderConfig", "name": "team-a"}
    required = [provider_config("ProviderConfig", "team-a")]
    rsp = run(xr(credentials=credentials), world(), required=required)
    selector = rsp.requirements.resources["nebius-provider-config"]
    assert selector.kind == "ProviderConfig"
    assert selector.match_name == "team-a"
    assert selector.namespace == NAMESPACE
    got = desired(rsp)
    for key in CLOUD_KEYS | {"nodepool-system", "nodepool-gpu"}:
        assert got[key]["spec"]["providerConfigRef"] == credentials
    workload_ref = {"kind": "ProviderConfig", "name": NAME}
    assert got["storage-class-rwx"]["spec"]["providerConfigRef"] == workload_ref


def test_requirement_is_emitted_when_credentials_are_present() -> None:
    rsp = run(xr(), required=[provider_config()])
    assert "nebius-provider-config" in rsp.requirements.resources


@pytest.mark.parametrize("required", [None, []], ids=["absent", "empty"])
def test_missing_credentials_waits_and_drops_nothing(required: list | None) -> None:
    resources = world()
    resources["nodepool-gpu"] = observed("nodepool-gpu")
    resources["storage-class-rwx"] = observed("storage-class-rwx")
    rsp = run(xr(), resources, required=required)
    assert messages(rsp) == [
        (fnv1.SEVERITY_NORMAL, "Waiting for Nebius ClusterProviderConfig default")
    ]
    assert set(resources) <= set(desired(rsp))
    assert status(rsp)["secrets"] == [KUBECONFIG_ENTRY]


def test_missing_custom_credentials_name_the_kind() -> None:
    rsp = run(xr(credentials={"kind": "ProviderConfig", "name": "team-a"}), required=[])
    assert messages(rsp) == [(fnv1.SEVERITY_NORMAL, "Waiting for Nebius ProviderConfig team-a")]


# Malformed XRs.


def _pool(**fields: object) -> dict:
    pool = copy.deepcopy(GPU_POOL)
    pool.update(fields)
    return pool


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"region": None}, "spec.region is required"),
        ({"nodePools": [_pool(name="")]}, "needs a name, a platform and a preset"),
        ({"nodePools": [_pool(platform=None)]}, "needs a name, a platform and a preset"),
        ({"nodePools": [_pool(preset="")]}, "needs a name, a platform and a preset"),
        ({"nodePools": [_pool(zones=0)]}, "node pool gpu: zones must be at least 1"),
        ({"nodePools": [_pool(zones="two")]}, "node pool gpu: zones must be at least 1"),
        ({"nodePools": [_pool(gpu={"count": 1})]}, "node pool gpu: gpu.type is required"),
        ({"nodePools": [_pool(name="system")]}, "must be unique and must not be 'system'"),
        ({"nodePools": [_pool(), _pool()]}, "must be unique and must not be 'system'"),
    ],
)
def test_malformed_xr_is_fatal(spec: dict, message: str) -> None:
    rsp = run(xr(**spec))
    assert messages(rsp) == [(fnv1.SEVERITY_FATAL, rsp.results[0].message)]
    assert message in rsp.results[0].message
    assert desired(rsp) == {}


def test_provider_config_identity_replaces_the_published_one() -> None:
    previous = {"secrets": [KUBECONFIG_ENTRY, {**IDENTITY_ENTRY, "name": "old-sa"}]}
    got = status(run(xr(status=previous), required=[provider_config()]))
    assert got["secrets"] == [KUBECONFIG_ENTRY, IDENTITY_ENTRY]
