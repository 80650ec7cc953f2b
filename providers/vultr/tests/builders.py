"""Builds RunFunctionRequests by hand and reads RunFunctionResponses back as dicts."""

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
    "plan": "vcg-a16-2c-8g-2vram",
    "nodeCount": 1,
    "minNodeCount": 0,
    "maxNodeCount": 4,
    "gpu": {"type": "nvidia-a16"},
}


def xr(status: dict[str, Any] | None = None, **spec: Any) -> dict[str, Any]:
    """A VultrCluster in ewr with one GPU pool; keyword arguments replace spec fields.

    A keyword set to None removes that field.
    """
    body: dict[str, Any] = {"region": "ewr", "nodePools": [copy.deepcopy(GPU_POOL)]}
    body.update(spec)
    body = {k: v for k, v in body.items() if v is not None}
    composite = {
        "apiVersion": "infrastructure.modelplane.ai/v1alpha1",
        "kind": "VultrCluster",
        "metadata": {"name": NAME, "namespace": NAMESPACE, "uid": "0000-demo"},
        "spec": body,
    }
    if status is not None:
        composite["status"] = status
    return composite


def observed(
    body: dict[str, Any], key: str, *, ready: bool = True, external_name: str | None = None
) -> dict[str, Any]:
    """What the world reports for a composed resource created from `body`."""
    annotations = {"crossplane.io/composition-resource-name": key}
    if external_name:
        annotations["crossplane.io/external-name"] = external_name
    state = "True" if ready else "False"
    return {
        **copy.deepcopy(body),
        "metadata": {"name": f"{NAME}-{key}", "namespace": NAMESPACE, "annotations": annotations},
        "status": {
            "conditions": [{"type": "Ready", "status": state}, {"type": "Synced", "status": "True"}]
        },
    }


def request(
    composite: dict[str, Any] | None = None,
    resources: dict[str, dict[str, Any]] | None = None,
) -> fnv1.RunFunctionRequest:
    """A request observing `composite` and the composed resources in `resources` (key -> body)."""
    req = fnv1.RunFunctionRequest()
    req.observed.composite.resource.update(composite or xr())
    for key, body in (resources or {}).items():
        req.observed.resources[key].resource.update(body)
    return req


def run(req: fnv1.RunFunctionRequest) -> fnv1.RunFunctionResponse:
    """Call the function the way Crossplane does."""
    return asyncio.run(FunctionRunner().RunFunction(req, None))


def desired(rsp: fnv1.RunFunctionResponse) -> dict[str, dict[str, Any]]:
    """Desired composed resources as plain dicts, by key."""
    return {key: resource.struct_to_dict(r.resource) for key, r in rsp.desired.resources.items()}


def status(rsp: fnv1.RunFunctionResponse) -> dict[str, Any]:
    """The desired XR status."""
    return resource.struct_to_dict(rsp.desired.composite.resource).get("status", {})


def messages(rsp: fnv1.RunFunctionResponse) -> list[tuple[int, str]]:
    """The results as (severity, message) pairs."""
    return [(r.severity, r.message) for r in rsp.results]


def observe_all(rsp: fnv1.RunFunctionResponse, *, ready: bool = True) -> dict[str, dict[str, Any]]:
    """Observed state in which everything desired by `rsp` exists, without cloud facts yet."""
    return {key: observed(body, key, ready=ready) for key, body in desired(rsp).items()}
