"""Hand-built RunFunctionRequests shaped like drift's simulated world (and Crossplane's)."""

import asyncio
from typing import Any

from crossplane.function import resource
from crossplane.function.proto.v1 import run_function_pb2 as fnv1

from function.fn import FunctionRunner

GPU_POOL = {
    "name": "gpu",
    "instanceType": "g6.xlarge",
    "nodeCount": 1,
    "minNodeCount": 0,
    "maxNodeCount": 4,
    "zones": 2,
    "gpu": {"type": "nvidia-l4", "count": 1},
}


def xr(spec: dict[str, Any] | None = None, **overrides: Any) -> dict[str, Any]:
    """An EKSCluster named demo in namespace modelplane with one GPU pool; keyword args override spec."""
    spec = spec if spec is not None else {"region": "us-west-2", "nodePools": [GPU_POOL]}
    return {
        "apiVersion": "infrastructure.modelplane.ai/v1alpha1",
        "kind": "EKSCluster",
        "metadata": {
            "name": "demo",
            "namespace": "modelplane",
            "uid": "6c1b0f1e-0000-4000-8000-000000000001",
        },
        "spec": {**spec, **overrides},
    }


def request(
    composite: dict[str, Any],
    observed: dict[str, dict[str, Any]] | None = None,
    required: dict[str, list[dict[str, Any]]] | None = None,
) -> fnv1.RunFunctionRequest:
    """A request observing `composite` and the composed resources in `observed` (key -> body)."""
    req = fnv1.RunFunctionRequest()
    req.observed.composite.resource.update(composite)
    for key, body in (observed or {}).items():
        req.observed.resources[key].resource.update(body)
    for name, items in (required or {}).items():
        req.required_resources[name].SetInParent()
        for item in items:
            req.required_resources[name].items.add().resource.update(item)
    return req


def run(req: fnv1.RunFunctionRequest) -> fnv1.RunFunctionResponse:
    """Call the function the way Crossplane does, minus gRPC."""
    return asyncio.run(FunctionRunner().RunFunction(req, None))


def desired(rsp: fnv1.RunFunctionResponse) -> dict[str, dict[str, Any]]:
    """The desired composed resources as plain dicts, by key."""
    return {key: resource.struct_to_dict(r.resource) for key, r in rsp.desired.resources.items()}


def status(rsp: fnv1.RunFunctionResponse) -> dict[str, Any]:
    """The desired XR status."""
    return resource.struct_to_dict(rsp.desired.composite.resource).get("status", {})


def observe(
    rsp: fnv1.RunFunctionResponse,
    ready: bool = True,
    external_names: dict[str, str] | None = None,
) -> dict[str, dict[str, Any]]:
    """What Crossplane would observe after applying `rsp`: every desired resource, named, with conditions."""
    observed = {}
    for key, body in desired(rsp).items():
        metadata = body.setdefault("metadata", {})
        metadata.setdefault("name", f"demo-{key}")
        metadata["namespace"] = "modelplane"
        annotations = metadata.setdefault("annotations", {})
        annotations["crossplane.io/composition-resource-name"] = key
        if key in (external_names or {}):
            annotations["crossplane.io/external-name"] = external_names[key]
        condition = "True" if ready else "False"
        body["status"] = {
            "conditions": [
                {"type": "Ready", "status": condition},
                {"type": "Synced", "status": "True"},
            ]
        }
        observed[key] = body
    return observed
