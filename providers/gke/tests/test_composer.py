"""Drives the GKE function step by step through crafted requests."""

from crossplane.function.proto.v1 import run_function_pb2 as fnv1

from builders import (
    CLUSTER_PROVIDER_CONFIG,
    GPU_POOL,
    NAME,
    NAMESPACE,
    desired,
    observe_all,
    observed,
    request,
    run,
    status,
    xr,
)

FIRST_STEP = {
    "network",
    "subnet",
    "cluster",
    "service-account",
    "service-account-key",
    "provider-config-kubernetes",
    "provider-config-helm",
}
EMAIL = "demo-nodes@my-project.iam.gserviceaccount.com"


def normal_messages(rsp: fnv1.RunFunctionResponse) -> list[str]:
    return [r.message for r in rsp.results if r.severity == fnv1.SEVERITY_NORMAL]


def world(**facts: dict) -> dict[str, dict]:
    """Everything from the first step observed Ready, with cloud facts merged in by key."""
    resources = observe_all(run(request(provider_configs=[CLUSTER_PROVIDER_CONFIG])))
    for key, fact in facts.items():
        resources[key] = observed(resources[key], key, **fact)
    return resources


# First step


def test_first_step_composes_what_needs_no_cloud_fact():
    rsp = run(request(provider_configs=[CLUSTER_PROVIDER_CONFIG]))
    assert set(desired(rsp)) == FIRST_STEP


def test_cloud_resources_use_default_credentials():
    resources = desired(run(request()))
    for key in FIRST_STEP - {"provider-config-kubernetes", "provider-config-helm"}:
        assert resources[key]["spec"]["providerConfigRef"] == {
            "kind": "ClusterProviderConfig",
            "name": "default",
        }


def test_cluster_writes_kubeconfig_and_provider_configs_read_it():
    resources = desired(run(request()))
    cluster = resources["cluster"]["spec"]
    assert cluster["writeConnectionSecretToRef"] == {"name": "demo-kubeconfig"}
    assert cluster["forProvider"]["location"] == "us-central1"
    assert cluster["forProvider"]["removeDefaultNodePool"] is True
    assert cluster["forProvider"]["networkSelector"] == {"matchControllerRef": True}
    for key, api_version in (
        ("provider-config-kubernetes", "kubernetes.m.crossplane.io/v1alpha1"),
        ("provider-config-helm", "helm.m.crossplane.io/v1beta1"),
    ):
        assert resources[key]["apiVersion"] == api_version
        assert resources[key]["metadata"] == {"name": NAME}
        assert resources[key]["spec"]["credentials"] == {
            "source": "Secret",
            "secretRef": {"namespace": NAMESPACE, "name": "demo-kubeconfig", "key": "kubeconfig"},
        }


def test_service_account_key_writes_identity_secret():
    key = desired(run(request()))["service-account-key"]["spec"]
    assert key["forProvider"] == {"serviceAccountIdSelector": {"matchControllerRef": True}}
    assert key["writeConnectionSecretToRef"] == {"name": "demo-gcp-credentials"}


# Gating on cloud facts


def test_node_pools_appear_once_cluster_is_observed():
    resources = world()
    resources.pop("cluster")
    assert "nodepool-system" not in desired(run(request(resources=resources)))
    composed = desired(run(request(resources=world())))
    assert {"nodepool-system", "nodepool-gpu"} <= set(composed)


def test_node_pools_are_kept_once_observed():
    resources = world()
    pools = {
        k: v
        for k, v in desired(run(request(resources=resources))).items()
        if k.startswith("nodepool-")
    }
    resources.update({key: observed(body, key) for key, body in pools.items()})
    resources.pop("cluster")
    composed = desired(run(request(resources=resources)))
    for key, body in pools.items():
        assert composed[key]["spec"] == body["spec"]


def test_gpu_pool_labels_accelerator_zones_and_autoscaling():
    pool = desired(run(request(resources=world())))["nodepool-gpu"]
    assert pool["apiVersion"] == "container.gcp.m.upbound.io/v1beta1"
    assert pool["kind"] == "NodePool"
    spec = pool["spec"]["forProvider"]
    assert spec["clusterSelector"] == {"matchControllerRef": True}
    assert spec["nodeLocations"] == ["us-central1-a", "us-central1-b"]
    assert spec["autoscaling"] == {"minNodeCount": 0, "maxNodeCount": 4}
    assert spec["nodeConfig"]["machineType"] == "g2-standard-8"
    assert spec["nodeConfig"]["labels"] == {
        "modelplane.ai/pool": "gpu",
        "modelplane.ai/gpu": "nvidia-l4",
    }
    assert spec["nodeConfig"]["guestAccelerator"] == [{"type": "nvidia-l4", "count": 1}]


def test_system_pool_is_labelled_and_has_no_gpu():
    spec = desired(run(request(resources=world())))["nodepool-system"]["spec"]["forProvider"]
    assert spec["nodeConfig"]["labels"] == {"modelplane.ai/pool": "system"}
    assert "guestAccelerator" not in spec["nodeConfig"]
    assert spec["nodeLocations"] == ["us-central1-a"]


def test_iam_binding_needs_email_and_project():
    assert "iam-binding" not in desired(run(request(resources=world())))
    facts = {"service-account": {"at_provider": {"email": EMAIL}}}
    binding = desired(
        run(request(resources=world(**facts), provider_configs=[CLUSTER_PROVIDER_CONFIG]))
    )
    assert binding["iam-binding"]["kind"] == "ProjectIAMMember"
    assert binding["iam-binding"]["spec"]["forProvider"] == {
        "project": "my-project",
        "role": "roles/container.defaultNodeServiceAccount",
        "member": f"serviceAccount:{EMAIL}",
    }


def test_iam_binding_is_kept_when_email_disappears():
    facts = {"service-account": {"at_provider": {"email": EMAIL}}}
    resources = world(**facts)
    binding = desired(
        run(request(resources=resources, provider_configs=[CLUSTER_PROVIDER_CONFIG]))
    )["iam-binding"]
    resources["iam-binding"] = observed(binding, "iam-binding")
    resources["service-account"] = observed(resources["service-account"], "service-account")
    kept = desired(run(request(resources=resources, provider_configs=[CLUSTER_PROVIDER_CONFIG])))
    assert kept["iam-binding"]["spec"] == binding["spec"]


def test_storage_class_appears_once_network_external_name_is_observed():
    assert "storage-class-rwx" not in desired(run(request(resources=world())))
    resources = world(network={"external_name": "demo-vpc"})
    obj = desired(run(request(resources=resources)))["storage-class-rwx"]
    assert obj["apiVersion"] == "kubernetes.m.crossplane.io/v1alpha1"
    assert obj["kind"] == "Object"
    assert obj["metadata"] == {"name": "demo-storage-class-rwx"}
    assert obj["spec"]["providerConfigRef"] == {"kind": "ProviderConfig", "name": NAME}
    assert obj["spec"]["managementPolicies"] == ["Observe", "Create", "Update", "LateInitialize"]
    assert obj["spec"]["readiness"] == {"policy": "SuccessfulCreate"}
    manifest = obj["spec"]["forProvider"]["manifest"]
    assert manifest["metadata"] == {"name": "modelplane-rwx"}
    assert manifest["provisioner"] == "filestore.csi.storage.gke.io"
    assert manifest["parameters"] == {"tier": "standard", "network": "demo-vpc"}


def test_storage_class_is_kept_once_observed():
    resources = world(network={"external_name": "demo-vpc"})
    obj = desired(run(request(resources=resources)))["storage-class-rwx"]
    resources["storage-class-rwx"] = observed(obj, "storage-class-rwx")
    resources["network"] = observed(resources["network"], "network")
    kept = desired(run(request(resources=resources)))
    assert kept["storage-class-rwx"]["spec"] == obj["spec"]


# Readiness


def test_in_cluster_resources_are_ready_when_composed():
    rsp = run(request())
    ready = {key for key, r in rsp.desired.resources.items() if r.ready == fnv1.READY_TRUE}
    assert ready == {"provider-config-kubernetes", "provider-config-helm"}


def test_cloud_resources_are_ready_when_observed_ready():
    resources = world(network={"external_name": "demo-vpc"})
    resources["subnet"] = observed(resources["subnet"], "subnet", ready=False)
    rsp = run(request(resources=resources))
    marks = {key: r.ready for key, r in rsp.desired.resources.items()}
    assert marks["network"] == fnv1.READY_TRUE
    assert marks["cluster"] == fnv1.READY_TRUE
    assert marks["subnet"] == fnv1.READY_UNSPECIFIED
    assert marks["nodepool-gpu"] == fnv1.READY_UNSPECIFIED
    assert marks["storage-class-rwx"] == fnv1.READY_TRUE


# Status


def test_status_lists_kubeconfig_and_identity_secrets():
    assert status(run(request())) == {
        "secrets": [
            {"type": "Kubeconfig", "name": "demo-kubeconfig", "key": "kubeconfig"},
            {
                "type": "GoogleApplicationCredentials",
                "name": "demo-gcp-credentials",
                "key": "private_key",
            },
        ]
    }


def test_status_cache_once_storage_class_is_composed():
    resources = world(network={"external_name": "demo-vpc"})
    assert status(run(request(resources=resources)))["cache"] == {
        "storageClassName": "modelplane-rwx"
    }


def test_status_is_the_only_thing_written_to_the_composite():
    composite = run(request()).desired.composite.resource
    assert set(composite.keys()) == {"status"}


# Credentials


def test_requirement_defaults_to_cluster_provider_config():
    rsp = run(request())
    selector = rsp.requirements.resources["gcp-provider-config"]
    assert selector.api_version == "gcp.m.upbound.io/v1beta1"
    assert selector.kind == "ClusterProviderConfig"
    assert selector.match_name == "default"
    assert not selector.HasField("namespace")


def test_custom_provider_config_is_namespaced_and_referenced():
    composite = xr(credentials={"kind": "ProviderConfig", "name": "team"})
    rsp = run(request(composite=composite, provider_configs=[]))
    selector = rsp.requirements.resources["gcp-provider-config"]
    assert (selector.kind, selector.match_name, selector.namespace) == (
        "ProviderConfig",
        "team",
        NAMESPACE,
    )
    resources = desired(rsp)
    assert resources["cluster"]["spec"]["providerConfigRef"] == {
        "kind": "ProviderConfig",
        "name": "team",
    }
    assert normal_messages(rsp) == ["Waiting for GCP ProviderConfig team"]


def test_requirement_is_emitted_when_credentials_are_present():
    rsp = run(request(provider_configs=[CLUSTER_PROVIDER_CONFIG]))
    assert rsp.requirements.resources["gcp-provider-config"].match_name == "default"
    assert normal_messages(rsp) == []


def test_missing_credentials_wait_for_absent_and_empty_alike():
    for provider_configs in (None, []):
        rsp = run(request(provider_configs=provider_configs))
        assert normal_messages(rsp) == ["Waiting for GCP ClusterProviderConfig default"]
        assert set(desired(rsp)) == FIRST_STEP


def test_missing_credentials_drop_nothing_observed():
    facts = {
        "service-account": {"at_provider": {"email": EMAIL}},
        "network": {"external_name": "demo-vpc"},
    }
    resources = world(**facts)
    full = run(request(resources=resources, provider_configs=[CLUSTER_PROVIDER_CONFIG]))
    resources.update({key: observed(body, key) for key, body in desired(full).items()})
    rsp = run(request(resources=resources, provider_configs=[]))
    assert set(desired(rsp)) == set(desired(full))
    assert desired(rsp)["iam-binding"]["spec"] == desired(full)["iam-binding"]["spec"]


# Malformed XR


def test_missing_region_is_fatal():
    composite = xr()
    del composite["spec"]["region"]
    rsp = run(request(composite=composite))
    assert [r.severity for r in rsp.results] == [fnv1.SEVERITY_FATAL]
    assert "spec.region" in rsp.results[0].message
    assert len(rsp.desired.resources) == 0


def test_duplicate_pool_names_are_fatal():
    rsp = run(request(composite=xr(nodePools=[GPU_POOL, GPU_POOL])))
    assert [r.severity for r in rsp.results] == [fnv1.SEVERITY_FATAL]
