"""Builds RunFunctionRequests by hand and reads RunFunctionResponses back as dicts."""

import asyncio
from typing import Any

from crossplane.function import resource
from crossplane.function.proto.v1 import run_function_pb2 as fnv1

from function.fn import FunctionRunner

NAME = "demo"
NAMESPACE = "modelplane"

GPU_POOL = {
    "name": "gpu",
    "machineType": "g2-standard-8",
    "nodeCount": 1,
    "minNodeCount": 0,
    "maxNodeCount": 4,
    "zones": 2,
    "gpu": {"type": "nvidia-l4", "count": 1},
}

CLUSTER_PROVIDER_CONFIG = {
    "apiVersion": "gcp.m.upbound.io/v1beta1",
    "kind": "ClusterProviderConfig",
    "metadata": {"name": "default"},
    "spec": {"projectID": "my-project"},
}


def xr(**spec: Any) -> dict:
    """A GKECluster in us-central1 with one GPU pool; keyword arguments override spec fields."""
    return {
        "apiVersion": "infrastructure.modelplane.ai/v1alpha1",
        "kind": "GKECluster",
        "metadata": {"name": NAME, "namespace": NAMESPACE, "uid": "1234"},
        "spec": {"region": "us-central1", "nodePools": [GPU_POOL], **spec},
    }


def observed(
    body: dict,
    key: str,
    *,
    ready: bool = True,
    external_name: str | None = None,
    at_provider: dict | None = None,
) -> dict:
    """What the world reports for a composed resource created from `body`."""
    annotations = {"crossplane.io/composition-resource-name": key}
    if external_name:
        annotations["crossplane.io/external-name"] = external_name
    status = "True" if ready else "False"
    return {
        **body,
        "metadata": {"name": f"{NAME}-{key}", "namespace": NAMESPACE, "annotations": annotations},
        "status": {
            "conditions": [
                {"type": "Ready", "status": status},
                {"type": "Synced", "status": "True"},
            ],
            "atProvider": at_provider or {},
        },
    }


def request(
    composite: dict | None = None,
    resources: dict[str, dict] | None = None,
    provider_configs: list[dict] | None = None,
) -> fnv1.RunFunctionRequest:
    """A request; provider_configs None leaves the requirement absent, [] resolves it empty."""
    req = fnv1.RunFunctionRequest()
    req.observed.composite.resource.update(composite or xr())
    for key, body in (resources or {}).items():
        req.observed.resources[key].resource.update(body)
    if provider_configs is not None:
        # Indexing the map creates the entry: resolved, possibly with zero items.
        required = req.required_resources["gcp-provider-config"]
        for item in provider_configs:
            required.items.add().resource.update(item)
    return req


def run(req: fnv1.RunFunctionRequest) -> fnv1.RunFunctionResponse:
    """Call the function the way Crossplane does."""
    return asyncio.run(FunctionRunner().RunFunction(req, None))


def desired(rsp: fnv1.RunFunctionResponse) -> dict[str, dict]:
    """Desired composed resources as plain dicts, by key."""
    return {key: resource.struct_to_dict(r.resource) for key, r in rsp.desired.resources.items()}


def status(rsp: fnv1.RunFunctionResponse) -> dict:
    """The desired XR status."""
    return resource.struct_to_dict(rsp.desired.composite.resource).get("status", {})


def observe_all(rsp: fnv1.RunFunctionResponse, *, ready: bool = True) -> dict[str, dict]:
    """Observed state in which everything desired by `rsp` exists, without cloud facts yet."""
    return {key: observed(body, key, ready=ready) for key, body in desired(rsp).items()}
