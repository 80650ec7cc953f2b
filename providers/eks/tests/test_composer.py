"""Drives the EKSCluster function through the steps Crossplane would take."""

import json

import pytest
from crossplane.function.proto.v1 import run_function_pb2 as fnv1

from builders import GPU_POOL, desired, observe, request, run, status, xr

FIRST_STEP = {
    "network": ("ec2.aws.m.upbound.io/v1beta1", "VPC"),
    "subnet-a": ("ec2.aws.m.upbound.io/v1beta1", "Subnet"),
    "subnet-b": ("ec2.aws.m.upbound.io/v1beta1", "Subnet"),
    "iam-role-cluster": ("iam.aws.m.upbound.io/v1beta1", "Role"),
    "iam-role-node": ("iam.aws.m.upbound.io/v1beta1", "Role"),
    "cluster": ("eks.aws.m.upbound.io/v1beta1", "Cluster"),
    "cluster-auth": ("eks.aws.m.upbound.io/v1beta1", "ClusterAuth"),
    "efs": ("efs.aws.m.upbound.io/v1beta1", "FileSystem"),
    "provider-config-kubernetes": ("kubernetes.m.crossplane.io/v1alpha1", "ProviderConfig"),
    "provider-config-helm": ("helm.m.crossplane.io/v1beta1", "ProviderConfig"),
}
CLOUD_KEYS = [k for k in FIRST_STEP if not k.startswith("provider-config")] + [
    "nodepool-system",
    "nodepool-gpu",
]
IN_CLUSTER_KEYS = ["provider-config-kubernetes", "provider-config-helm", "storage-class-rwx"]
KUBECONFIG = {"type": "Kubeconfig", "name": "demo-kubeconfig", "key": "kubeconfig"}


def converged(composite: dict | None = None) -> fnv1.RunFunctionResponse:
    """Run until everything is composed: cluster observed, then the EFS external name observed."""
    composite = composite or xr()
    first = run(request(composite))
    second = run(request(composite, observe(first, external_names={"efs": "fs-0123"})))
    return run(request(composite, observe(second, external_names={"efs": "fs-0123"})))


def test_first_step_composes_everything_that_waits_for_nothing():
    rsp = run(request(xr()))
    got = desired(rsp)
    assert {k: (v["apiVersion"], v["kind"]) for k, v in got.items()} == FIRST_STEP
    assert not rsp.results
    assert not rsp.requirements.resources
    assert status(rsp) == {"secrets": [KUBECONFIG]}


def test_network_spans_two_zones_with_zone_labelled_subnets():
    got = desired(run(request(xr())))
    assert got["network"]["spec"]["forProvider"] == {
        "region": "us-west-2",
        "cidrBlock": "10.0.0.0/16",
        "enableDnsSupport": True,
        "enableDnsHostnames": True,
    }
    for letter in "ab":
        subnet = got[f"subnet-{letter}"]
        assert subnet["spec"]["forProvider"]["availabilityZone"] == f"us-west-2{letter}"
        assert subnet["spec"]["forProvider"]["vpcIdSelector"] == {"matchControllerRef": True}
        assert subnet["metadata"]["labels"] == {"modelplane.ai/zone": f"us-west-2{letter}"}
    assert (
        got["subnet-a"]["spec"]["forProvider"]["cidrBlock"]
        != got["subnet-b"]["spec"]["forProvider"]["cidrBlock"]
    )


def test_roles_trust_their_service_and_are_selected_by_label():
    got = desired(run(request(xr())))
    for role, service in (("cluster", "eks.amazonaws.com"), ("node", "ec2.amazonaws.com")):
        body = got[f"iam-role-{role}"]
        assert body["metadata"]["labels"] == {"modelplane.ai/role": role}
        policy = json.loads(body["spec"]["forProvider"]["assumeRolePolicy"])
        assert policy["Statement"][0]["Principal"] == {"Service": service}
        assert "region" not in body["spec"]["forProvider"]  # IAM is global
    cluster = got["cluster"]["spec"]["forProvider"]
    assert cluster["roleArnSelector"] == {
        "matchControllerRef": True,
        "matchLabels": {"modelplane.ai/role": "cluster"},
    }
    assert cluster["vpcConfig"] == {"subnetIdSelector": {"matchControllerRef": True}}
    assert cluster["region"] == "us-west-2"


def test_cluster_auth_writes_the_kubeconfig_and_provider_configs_read_it():
    got = desired(run(request(xr())))
    auth = got["cluster-auth"]["spec"]
    assert auth["forProvider"] == {
        "region": "us-west-2",
        "clusterNameSelector": {"matchControllerRef": True},
    }
    assert auth["writeConnectionSecretToRef"] == {"name": "demo-kubeconfig"}
    assert "writeConnectionSecretToRef" not in got["cluster"]["spec"]
    for key in ("provider-config-kubernetes", "provider-config-helm"):
        assert got[key]["metadata"]["name"] == "demo"
        assert got[key]["spec"]["credentials"] == {
            "source": "Secret",
            "secretRef": {
                "namespace": "modelplane",
                "name": "demo-kubeconfig",
                "key": "kubeconfig",
            },
        }


def test_node_pools_appear_once_the_cluster_is_observed():
    first = run(request(xr()))
    got = desired(run(request(xr(), observe(first, ready=False))))
    assert {"nodepool-system", "nodepool-gpu"} <= got.keys()


def test_node_pools_are_kept_once_observed():
    second = run(request(xr(), observe(run(request(xr())))))
    observed = observe(second)
    del observed["cluster"]
    got = desired(run(request(xr(), observed)))
    assert {"nodepool-system", "nodepool-gpu"} <= got.keys()


def test_gpu_pool_is_labelled_and_uses_the_nvidia_ami():
    pool = desired(converged())["nodepool-gpu"]["spec"]["forProvider"]
    assert pool["labels"] == {"modelplane.ai/pool": "gpu", "modelplane.ai/gpu": "nvidia-l4"}
    assert pool["amiType"] == "AL2023_x86_64_NVIDIA"
    assert pool["instanceTypes"] == ["g6.xlarge"]
    assert pool["scalingConfig"] == {"desiredSize": 1, "minSize": 0, "maxSize": 4}
    assert pool["clusterNameSelector"] == {"matchControllerRef": True}
    assert pool["nodeRoleArnSelector"] == {
        "matchControllerRef": True,
        "matchLabels": {"modelplane.ai/role": "node"},
    }
    assert pool["subnetIdSelector"] == {"matchControllerRef": True}  # zones: 2 -> both subnets


def test_system_pool_is_injected_with_the_system_label():
    pool = desired(converged())["nodepool-system"]["spec"]["forProvider"]
    assert pool["labels"] == {"modelplane.ai/pool": "system"}
    assert pool["amiType"] == "AL2023_x86_64_STANDARD"


@pytest.mark.parametrize(
    ("zones", "selector"),
    [
        (None, {"matchControllerRef": True, "matchLabels": {"modelplane.ai/zone": "us-west-2a"}}),
        (1, {"matchControllerRef": True, "matchLabels": {"modelplane.ai/zone": "us-west-2a"}}),
        (2, {"matchControllerRef": True}),
        (3, {"matchControllerRef": True}),
    ],
)
def test_pool_zones_select_the_first_subnets(zones, selector):
    pool = {k: v for k, v in GPU_POOL.items() if k != "zones"} | ({"zones": zones} if zones else {})
    got = desired(converged(xr(region="us-west-2", nodePools=[pool])))
    assert got["nodepool-gpu"]["spec"]["forProvider"]["subnetIdSelector"] == selector


def test_storage_class_waits_for_the_efs_file_system_id():
    first = run(request(xr()))
    got = desired(run(request(xr(), observe(first))))
    assert "storage-class-rwx" not in got
    rsp = run(request(xr(), observe(first, external_names={"efs": "fs-0123"})))
    storage = desired(rsp)["storage-class-rwx"]
    assert storage["metadata"]["name"] == "demo-storage-class-rwx"
    assert storage["spec"]["forProvider"]["manifest"] == {
        "apiVersion": "storage.k8s.io/v1",
        "kind": "StorageClass",
        "metadata": {"name": "modelplane-rwx"},
        "provisioner": "efs.csi.aws.com",
        "parameters": {
            "provisioningMode": "efs-ap",
            "fileSystemId": "fs-0123",
            "directoryPerms": "700",
        },
    }
    assert storage["spec"]["providerConfigRef"] == {"kind": "ProviderConfig", "name": "demo"}
    assert storage["spec"]["managementPolicies"] == [
        "Observe",
        "Create",
        "Update",
        "LateInitialize",
    ]
    assert storage["spec"]["readiness"] == {"policy": "SuccessfulCreate"}
    assert status(rsp) == {"secrets": [KUBECONFIG], "cache": {"storageClassName": "modelplane-rwx"}}


def test_storage_class_is_kept_once_observed():
    observed = observe(converged())  # the efs external name is no longer observed
    assert "crossplane.io/external-name" not in observed["efs"]["metadata"]["annotations"]
    rsp = run(request(xr(), observed))
    manifest = desired(rsp)["storage-class-rwx"]["spec"]["forProvider"]["manifest"]
    assert manifest["parameters"]["fileSystemId"] == "fs-0123"
    assert status(rsp)["cache"] == {"storageClassName": "modelplane-rwx"}


def test_readiness_follows_observed_ready_for_cloud_resources():
    rsp = converged()
    not_ready = run(request(xr(), observe(rsp, ready=False, external_names={"efs": "fs-0123"})))
    ready = run(request(xr(), observe(rsp, external_names={"efs": "fs-0123"})))
    for key in CLOUD_KEYS:
        assert not_ready.desired.resources[key].ready == fnv1.READY_UNSPECIFIED, key
        assert ready.desired.resources[key].ready == fnv1.READY_TRUE, key
    for key in IN_CLUSTER_KEYS:
        assert not_ready.desired.resources[key].ready == fnv1.READY_TRUE, key


def test_in_cluster_resources_are_ready_as_soon_as_composed():
    rsp = run(request(xr()))
    assert rsp.desired.resources["provider-config-kubernetes"].ready == fnv1.READY_TRUE
    assert rsp.desired.resources["provider-config-helm"].ready == fnv1.READY_TRUE
    assert rsp.desired.resources["network"].ready == fnv1.READY_UNSPECIFIED


def test_credentials_default_to_the_default_cluster_provider_config():
    got = desired(converged())
    for key in CLOUD_KEYS:
        assert got[key]["spec"]["providerConfigRef"] == {
            "kind": "ClusterProviderConfig",
            "name": "default",
        }, key


def test_custom_provider_config_is_referenced_by_cloud_resources_only():
    composite = xr(credentials={"kind": "ProviderConfig", "name": "team-aws"})
    got = desired(converged(composite))
    for key in CLOUD_KEYS:
        assert got[key]["spec"]["providerConfigRef"] == {
            "kind": "ProviderConfig",
            "name": "team-aws",
        }, key
    assert got["storage-class-rwx"]["spec"]["providerConfigRef"] == {
        "kind": "ProviderConfig",
        "name": "demo",
    }
    assert "providerConfigRef" not in got["provider-config-kubernetes"]["spec"]


@pytest.mark.parametrize("required", [None, {}, {"aws-provider-config": []}])
def test_eks_requires_no_credentials_resource_and_drops_nothing(required):
    """EKS reads its credentials in the AWS provider, so nothing waits for a required resource."""
    composite = xr(credentials={"kind": "ProviderConfig", "name": "team-aws"})
    observed = observe(converged(composite), external_names={"efs": "fs-0123"})
    rsp = run(request(composite, observed, required))
    assert not rsp.requirements.resources
    assert not rsp.results
    assert observed.keys() == desired(rsp).keys()


def test_output_is_deterministic():
    observed = observe(converged(), external_names={"efs": "fs-0123"})
    first = run(request(xr(), observed)).SerializeToString(deterministic=True)
    assert first == run(request(xr(), observed)).SerializeToString(deterministic=True)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"nodePools": []}, "spec.region is required"),
        (
            {"region": "us-west-2", "nodePools": [{"name": "gpu", "nodeCount": 1}]},
            "lacks instanceType",
        ),
        ({"region": "us-west-2", "nodePools": [GPU_POOL, GPU_POOL]}, "must be unique"),
        ({"region": "us-west-2", "nodePools": [GPU_POOL | {"name": "system"}]}, "must be unique"),
    ],
)
def test_malformed_xr_is_fatal(spec, message):
    rsp = run(request(xr(spec)))
    assert len(rsp.results) == 1
    assert rsp.results[0].severity == fnv1.SEVERITY_FATAL
    assert message in rsp.results[0].message
    assert not rsp.desired.resources
