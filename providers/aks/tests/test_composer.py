"""Drives the AKS function step by step through crafted requests."""

from crossplane.function.proto.v1 import run_function_pb2 as fnv1

from builders import (
    GPU_POOL,
    NAME,
    NAMESPACE,
    desired,
    messages,
    observe_all,
    observed,
    provider_config,
    request,
    run,
    status,
    xr,
)

CLOUD_KEYS = {"resource-group", "network", "subnet", "cluster"}
FIRST_STEP = CLOUD_KEYS | {"provider-config-kubernetes", "provider-config-helm"}
DEFAULT_REF = {"kind": "ClusterProviderConfig", "name": "default"}
KUBECONFIG_ENTRY = {"type": "Kubeconfig", "name": f"{NAME}-kubeconfig", "key": "kubeconfig"}
IDENTITY_ENTRY = {"type": "AzureClientCredentials", "name": "azure-sp", "key": "credentials"}


def world(*, rg_external_name: str | None = "demo-rg-x7k2q", ready: bool = True) -> dict:
    """Everything from the first step observed, the resource group named by Azure."""
    resources = observe_all(run(request(provider_configs=[provider_config()])), ready=ready)
    resources["resource-group"] = observed(
        resources["resource-group"], "resource-group", ready=ready, external_name=rg_external_name
    )
    return resources


# First step and gating.


def test_first_step_composes_everything_that_needs_no_cloud_fact():
    rsp = run(request(provider_configs=[provider_config()]))
    assert set(desired(rsp)) == FIRST_STEP
    assert messages(rsp) == []


def test_cloud_resources_use_kinds_selectors_and_credentials():
    got = desired(run(request()))
    kinds = {key: (got[key]["apiVersion"], got[key]["kind"]) for key in CLOUD_KEYS}
    assert kinds == {
        "resource-group": ("azure.m.upbound.io/v1beta1", "ResourceGroup"),
        "network": ("network.azure.m.upbound.io/v1beta1", "VirtualNetwork"),
        "subnet": ("network.azure.m.upbound.io/v1beta1", "Subnet"),
        "cluster": ("containerservice.azure.m.upbound.io/v1beta1", "KubernetesCluster"),
    }
    for key in CLOUD_KEYS:
        assert got[key]["spec"]["providerConfigRef"] == DEFAULT_REF
    assert got["subnet"]["spec"]["forProvider"]["virtualNetworkNameSelector"] == {
        "matchControllerRef": True
    }
    assert got["network"]["spec"]["forProvider"]["location"] == "westeurope"


def test_cluster_carries_the_system_pool_inline_and_writes_the_kubeconfig():
    cluster = desired(run(request()))["cluster"]["spec"]
    assert cluster["writeConnectionSecretToRef"] == {"name": f"{NAME}-kubeconfig"}
    pool = cluster["forProvider"]["defaultNodePool"]
    assert pool["name"] == "system"
    assert pool["nodeLabels"] == {"modelplane.ai/pool": "system"}
    assert pool["vnetSubnetIdSelector"] == {"matchControllerRef": True}
    assert (pool["autoScalingEnabled"], pool["minCount"], pool["maxCount"]) == (True, 1, 3)


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
    assert (pool["apiVersion"], pool["kind"]) == (
        "containerservice.azure.m.upbound.io/v1beta1",
        "KubernetesClusterNodePool",
    )
    spec = pool["spec"]["forProvider"]
    assert spec["kubernetesClusterIdSelector"] == {"matchControllerRef": True}
    assert spec["mode"] == "User"
    assert spec["vmSize"] == "Standard_NV36ads_A10_v5"
    assert spec["zones"] == ["1", "2"]
    assert (spec["nodeCount"], spec["minCount"], spec["maxCount"]) == (1, 0, 4)
    assert spec["nodeLabels"] == {"modelplane.ai/pool": "gpu", "modelplane.ai/gpu": "nvidia-a10"}
    assert pool["spec"]["providerConfigRef"] == DEFAULT_REF


def test_no_separate_system_pool_is_composed():
    assert not [key for key in desired(run(request(resources=world()))) if key.endswith("-system")]


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
    assert "autoScalingEnabled" not in spec
    assert spec["nodeCount"] == 1


def test_storage_class_waits_for_the_resource_group_name():
    assert "storage-class-rwx" not in desired(run(request(resources=world(rg_external_name=None))))


def test_storage_class_carries_the_resource_group_name():
    obj = desired(run(request(resources=world())))["storage-class-rwx"]
    assert (obj["apiVersion"], obj["kind"]) == ("kubernetes.m.crossplane.io/v1alpha1", "Object")
    assert obj["metadata"] == {"name": f"{NAME}-storage-class-rwx"}
    manifest = obj["spec"]["forProvider"]["manifest"]
    assert manifest["metadata"] == {"name": "modelplane-rwx"}
    assert manifest["provisioner"] == "file.csi.azure.com"
    assert manifest["parameters"] == {
        "protocol": "nfs",
        "skuName": "Premium_LRS",
        "resourceGroup": "demo-rg-x7k2q",
    }
    assert obj["spec"]["providerConfigRef"] == {"kind": "ProviderConfig", "name": NAME}
    assert obj["spec"]["managementPolicies"] == ["Observe", "Create", "Update", "LateInitialize"]
    assert obj["spec"]["readiness"] == {"policy": "SuccessfulCreate"}


def test_storage_class_is_kept_once_observed():
    resources = world()
    obj = desired(run(request(resources=resources)))["storage-class-rwx"]
    resources["storage-class-rwx"] = observed(obj, "storage-class-rwx")
    resources["resource-group"] = observed(resources["resource-group"], "resource-group")
    assert desired(run(request(resources=resources)))["storage-class-rwx"]["spec"] == obj["spec"]


# Readiness.


def test_in_cluster_resources_are_ready_when_composed():
    rsp = run(request())
    ready = {key for key, r in rsp.desired.resources.items() if r.ready == fnv1.READY_TRUE}
    assert ready == {"provider-config-kubernetes", "provider-config-helm"}


def test_cloud_resources_are_ready_when_observed_ready():
    resources = world()
    resources["subnet"] = observed(resources["subnet"], "subnet", ready=False)
    marks = {key: r.ready for key, r in run(request(resources=resources)).desired.resources.items()}
    assert marks["cluster"] == fnv1.READY_TRUE
    assert marks["subnet"] == fnv1.READY_UNSPECIFIED
    assert marks["nodepool-gpu"] == fnv1.READY_UNSPECIFIED
    assert marks["storage-class-rwx"] == fnv1.READY_TRUE


# Status.


def test_status_lists_kubeconfig_and_identity_and_cache():
    got = status(run(request(resources=world(), provider_configs=[provider_config()])))
    assert got == {
        "secrets": [KUBECONFIG_ENTRY, IDENTITY_ENTRY],
        "cache": {"storageClassName": "modelplane-rwx"},
    }


def test_identity_entry_is_kept_while_the_provider_config_is_missing():
    published = xr(status={"secrets": [KUBECONFIG_ENTRY, IDENTITY_ENTRY]})
    assert status(run(request(composite=published, provider_configs=[])))["secrets"] == [
        KUBECONFIG_ENTRY,
        IDENTITY_ENTRY,
    ]
    assert status(run(request(provider_configs=[])))["secrets"] == [KUBECONFIG_ENTRY]


# Credentials.


def test_requirement_defaults_to_cluster_provider_config():
    selector = run(request()).requirements.resources["azure-provider-config"]
    assert (selector.api_version, selector.kind, selector.match_name) == (
        "azure.m.upbound.io/v1beta1",
        "ClusterProviderConfig",
        "default",
    )
    assert not selector.HasField("namespace")


def test_provider_config_field_names_a_namespaced_config():
    composite = xr(providerConfig={"kind": "ProviderConfig", "name": "team"})
    rsp = run(request(composite=composite, provider_configs=[]))
    selector = rsp.requirements.resources["azure-provider-config"]
    assert (selector.kind, selector.match_name, selector.namespace) == (
        "ProviderConfig",
        "team",
        NAMESPACE,
    )
    assert desired(rsp)["cluster"]["spec"]["providerConfigRef"] == {
        "kind": "ProviderConfig",
        "name": "team",
    }
    assert messages(rsp) == [(fnv1.SEVERITY_NORMAL, "Waiting for Azure ProviderConfig team")]


def test_missing_credentials_drop_nothing_observed():
    resources = world()
    full = run(request(resources=resources, provider_configs=[provider_config()]))
    resources.update({key: observed(body, key) for key, body in desired(full).items()})
    rsp = run(request(resources=resources, provider_configs=[]))
    assert set(desired(rsp)) == set(desired(full))


# Malformed XR.


def test_missing_location_is_fatal():
    rsp = run(request(composite=xr(location=None)))
    assert [r.severity for r in rsp.results] == [fnv1.SEVERITY_FATAL]
    assert "spec.location" in rsp.results[0].message
    assert len(rsp.desired.resources) == 0


def test_pool_name_azure_cannot_take_is_fatal():
    rsp = run(request(composite=xr(nodePools=[{**GPU_POOL, "name": "gpu-pool"}])))
    assert [r.severity for r in rsp.results] == [fnv1.SEVERITY_FATAL]
    assert "lowercase letters and digits" in rsp.results[0].message


def test_duplicate_or_system_pool_names_are_fatal():
    for pools in ([GPU_POOL, GPU_POOL], [{**GPU_POOL, "name": "system"}]):
        rsp = run(request(composite=xr(nodePools=pools)))
        assert [r.severity for r in rsp.results] == [fnv1.SEVERITY_FATAL]
