"""Drives the Vultr function step by step through crafted requests."""

from crossplane.function.proto.v1 import run_function_pb2 as fnv1

from builders import (
    GPU_POOL,
    NAME,
    NAMESPACE,
    desired,
    messages,
    observe_all,
    observed,
    request,
    run,
    status,
    xr,
)

FIRST_STEP = {
    "cluster",
    "provider-config-kubernetes",
    "provider-config-helm",
    "storage-class-rwx",
    "cluster-info",
}
DEFAULT_REF = {"kind": "ClusterProviderConfig", "name": "default"}
VKE = "kubernetes.vultr.m.upbound.io/v1alpha1"


def world(*, ready: bool = True) -> dict:
    """Everything from the first step observed."""
    return observe_all(run(request()), ready=ready)


# First step and gating.


def test_first_step_composes_everything_but_the_node_pools():
    rsp = run(request())
    assert set(desired(rsp)) == FIRST_STEP
    assert messages(rsp) == []


def test_nothing_network_shaped_is_composed():
    kinds = {body["kind"] for body in desired(run(request(resources=world()))).values()}
    assert kinds == {"Kubernetes", "NodePools", "ProviderConfig", "Object", "ConfigMap"}


def test_cluster_carries_the_system_pool_inline_and_writes_the_kubeconfig():
    cluster = desired(run(request()))["cluster"]
    assert (cluster["apiVersion"], cluster["kind"]) == (VKE, "Kubernetes")
    spec = cluster["spec"]
    assert spec["providerConfigRef"] == DEFAULT_REF
    assert spec["writeConnectionSecretToRef"] == {"name": f"{NAME}-kubeconfig"}
    assert (spec["forProvider"]["region"], spec["forProvider"]["label"]) == ("ewr", NAME)
    pool = spec["forProvider"]["nodePools"]
    assert pool["label"] == "system"
    assert pool["labels"] == {"modelplane.ai/pool": "system"}
    assert (pool["autoScaler"], pool["minNodes"], pool["maxNodes"]) == (True, 1, 3)


def test_workload_provider_configs_read_the_kubeconfig():
    got = desired(run(request()))
    secret_ref = {"namespace": NAMESPACE, "name": f"{NAME}-kubeconfig", "key": "kubeconfig"}
    for key, api_version in (
        ("provider-config-kubernetes", "kubernetes.m.crossplane.io/v1alpha1"),
        ("provider-config-helm", "helm.m.crossplane.io/v1beta1"),
    ):
        assert got[key]["apiVersion"] == api_version
        assert got[key]["metadata"] == {"name": NAME}
        assert got[key]["spec"]["credentials"] == {"source": "Secret", "secretRef": secret_ref}


def test_node_pools_appear_once_the_cluster_is_observed():
    resources = world()
    resources.pop("cluster")
    assert "nodepool-gpu" not in desired(run(request(resources=resources)))
    pool = desired(run(request(resources=world())))["nodepool-gpu"]
    assert (pool["apiVersion"], pool["kind"]) == (VKE, "NodePools")
    spec = pool["spec"]["forProvider"]
    assert spec["clusterIdSelector"] == {"matchControllerRef": True}
    assert (spec["label"], spec["plan"], spec["nodeQuantity"]) == ("gpu", "vcg-a16-2c-8g-2vram", 1)
    assert (spec["autoScaler"], spec["minNodes"], spec["maxNodes"]) == (True, 0, 4)
    assert spec["labels"] == {"modelplane.ai/pool": "gpu", "modelplane.ai/gpu": "nvidia-a16"}
    assert pool["spec"]["providerConfigRef"] == DEFAULT_REF


def test_node_pools_are_kept_once_observed():
    resources = world()
    pool = desired(run(request(resources=resources)))["nodepool-gpu"]
    resources["nodepool-gpu"] = observed(pool, "nodepool-gpu")
    resources.pop("cluster")
    assert desired(run(request(resources=resources)))["nodepool-gpu"]["spec"] == pool["spec"]


def test_pool_without_upper_bound_keeps_a_fixed_size():
    fixed = {
        key: value for key, value in GPU_POOL.items() if key not in ("minNodeCount", "maxNodeCount")
    }
    spec = desired(run(request(composite=xr(nodePools=[fixed]), resources=world())))[
        "nodepool-gpu"
    ]["spec"]["forProvider"]
    assert "autoScaler" not in spec
    assert spec["nodeQuantity"] == 1


def test_storage_class_object_never_deletes():
    obj = desired(run(request()))["storage-class-rwx"]
    assert (obj["apiVersion"], obj["kind"]) == ("kubernetes.m.crossplane.io/v1alpha1", "Object")
    assert obj["metadata"] == {"name": f"{NAME}-storage-class-rwx"}
    manifest = obj["spec"]["forProvider"]["manifest"]
    assert (manifest["metadata"], manifest["provisioner"]) == (
        {"name": "modelplane-rwx"},
        "block.csi.vultr.com",
    )
    assert manifest["parameters"]["block_type"] == "vfs"
    assert obj["spec"]["providerConfigRef"] == {"kind": "ProviderConfig", "name": NAME}
    assert obj["spec"]["managementPolicies"] == ["Observe", "Create", "Update", "LateInitialize"]
    assert obj["spec"]["readiness"] == {"policy": "SuccessfulCreate"}


def test_cluster_info_is_a_config_map_composed_directly():
    info = desired(run(request()))["cluster-info"]
    assert (info["apiVersion"], info["kind"]) == ("v1", "ConfigMap")
    assert info["metadata"] == {"name": f"{NAME}-cluster-info"}
    assert info["data"]["kubeconfigSecret"] == f"{NAME}-kubeconfig"
    assert "providerConfigRef" not in info.get("spec", {})


# Readiness.


def test_plain_and_in_cluster_objects_are_ready_when_composed():
    rsp = run(request())
    ready = {key for key, r in rsp.desired.resources.items() if r.ready == fnv1.READY_TRUE}
    assert ready == FIRST_STEP - {"cluster"}


def test_cloud_resources_are_ready_when_observed_ready():
    resources = world()
    resources["nodepool-gpu"] = observed(
        desired(run(request(resources=resources)))["nodepool-gpu"], "nodepool-gpu", ready=False
    )
    marks = {key: r.ready for key, r in run(request(resources=resources)).desired.resources.items()}
    assert marks["cluster"] == fnv1.READY_TRUE
    assert marks["nodepool-gpu"] == fnv1.READY_UNSPECIFIED
    unready = {
        key: r.ready
        for key, r in run(request(resources=world(ready=False))).desired.resources.items()
    }
    assert unready["cluster"] == fnv1.READY_UNSPECIFIED


# Status.


def test_status_lists_the_kubeconfig_and_the_cache():
    assert status(run(request())) == {
        "secrets": [{"type": "Kubeconfig", "name": f"{NAME}-kubeconfig", "key": "kubeconfig"}],
        "cache": {"storageClassName": "modelplane-rwx"},
    }


# Credentials.


def test_custom_provider_config_is_referenced_and_never_required():
    rsp = run(request(composite=xr(credentials={"kind": "ProviderConfig", "name": "team"})))
    assert desired(rsp)["cluster"]["spec"]["providerConfigRef"] == {
        "kind": "ProviderConfig",
        "name": "team",
    }
    assert len(rsp.requirements.resources) == 0
    assert messages(rsp) == []


# Malformed XR.


def test_missing_region_is_fatal():
    rsp = run(request(composite=xr(region=None)))
    assert [r.severity for r in rsp.results] == [fnv1.SEVERITY_FATAL]
    assert "spec.region" in rsp.results[0].message
    assert len(rsp.desired.resources) == 0


def test_duplicate_or_system_pool_names_are_fatal():
    for pools in ([GPU_POOL, GPU_POOL], [{**GPU_POOL, "name": "system"}]):
        rsp = run(request(composite=xr(nodePools=pools)))
        assert [r.severity for r in rsp.results] == [fnv1.SEVERITY_FATAL]
