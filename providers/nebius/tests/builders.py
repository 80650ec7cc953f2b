"""Builds RunFunctionRequests the way drift's simulated Crossplane sends them."""

import asyncio
import copy
from typing import Any

from crossplane.function import resource
from crossplane.function.proto.v1 import run_function_pb2 as fnv1

from function.fn import FunctionRunner

NAME = "demo"
NAMESPACE = "modelplane"

GPU_POOL: dict[str, Any] = {
    "name": "gpu",
    "nodeCount": 1,
    "minNodeCount": 0,
    "maxNodeCount": 4,
    "zones": 2,
    "platform": "gpu-l40s-a",
    "preset": "1gpu-16vcpu-96gb",
    "gpu": {"type": "nvidia-l40s", "count": 1},
}


def xr(status: dict[str, Any] | None = None, **spec: Any) -> dict[str, Any]:
    """A NebiusCluster XR; keyword arguments replace spec fields (None removes one)."""
    body: dict[str, Any] = {"region": "eu-north1", "nodePools": [copy.deepcopy(GPU_POOL)]}
    body.update(spec)
    body = {k: v for k, v in body.items() if v is not None}
    composite = {
        "apiVersion": "infrastructure.modelplane.ai/v1alpha1",
        "kind": "NebiusCluster",
        "metadata": {"name": NAME, "namespace": NAMESPACE, "uid": "0000-demo"},
        "spec": body,
    }
    if status is not None:
        composite["status"] = status
    return composite


def observed(
    key: str,
    body: dict[str, Any] | None = None,
    *,
    ready: bool = True,
    external_name: str | None = None,
) -> dict[str, Any]:
    """An observed composed resource as Crossplane reports it back."""
    annotations = {"crossplane.io/composition-resource-name": key}
    if external_name:
        annotations["crossplane.io/external-name"] = external_name
    state = "True" if ready else "False"
    out = copy.deepcopy(body) if body else {}
    out["metadata"] = {
        "name": f"{NAME}-{key}-x7k2q",
        "namespace": NAMESPACE,
        "annotations": annotations,
    }
    conditions = [{"type": "Ready", "status": state}, {"type": "Synced", "status": "True"}]
    out["status"] = {"conditions": conditions}
    return out


def provider_config(
    kind: str = "ClusterProviderConfig", name: str = "default", secret: str | None = "nebius-sa"
) -> dict[str, Any]:
    """A Nebius (Cluster)ProviderConfig whose Secret holds a service-account key."""
    spec: dict[str, Any] = {"credentials": {"source": "Secret"}}
    if secret is not None:
        spec["credentials"]["secretRef"] = {
            "namespace": "crossplane-system",
            "name": secret,
            "key": "credentials.json",
        }
    return {
        "apiVersion": "nebius.m.upbound.io/v1beta1",
        "kind": kind,
        "metadata": {"name": name},
        "spec": spec,
    }


def run(
    composite: dict[str, Any],
    resources: dict[str, dict[str, Any]] | None = None,
    required: list[dict[str, Any]] | None = None,
) -> fnv1.RunFunctionResponse:
    """Run the function; required=None leaves the requirement unanswered (first round-trip)."""
    req = fnv1.RunFunctionRequest()
    req.observed.composite.resource.update(composite)
    for key, body in (resources or {}).items():
        req.observed.resources[key].resource.update(body)
    if required is not None:
        answer = req.required_resources["nebius-provider-config"]
        for item in required:
            answer.items.add().resource.update(item)
    return asyncio.run(FunctionRunner().RunFunction(req, None))


def desired(rsp: fnv1.RunFunctionResponse) -> dict[str, dict[str, Any]]:
    """The desired composed resources as plain dicts."""
    return {key: resource.struct_to_dict(r.resource) for key, r in rsp.desired.resources.items()}


def status(rsp: fnv1.RunFunctionResponse) -> dict[str, Any]:
    """The desired XR status."""
    return resource.struct_to_dict(rsp.desired.composite.resource).get("status", {})


def messages(rsp: fnv1.RunFunctionResponse) -> list[tuple[int, str]]:
    """The results as (severity, message) pairs."""
    return [(r.severity, r.message) for r in rsp.results]
