"""The gRPC servicer Crossplane calls once per reconcile of a NebiusCluster."""

import grpc
from crossplane.function import response
from crossplane.function.proto.v1 import run_function_pb2 as fnv1
from crossplane.function.proto.v1 import run_function_pb2_grpc as grpcv1

from function.composer import Composer, InvalidSpecError


class FunctionRunner(grpcv1.FunctionRunnerServiceServicer):
    """Answers RunFunction requests by composing a Nebius cluster."""

    async def RunFunction(
        self, req: fnv1.RunFunctionRequest, _context: grpc.aio.ServicerContext | None
    ) -> fnv1.RunFunctionResponse:
        """Compose the desired state for one XR.

        A malformed XR is a fatal result: composing half of it would create cloud
        resources the user never asked for.
        """
        rsp = response.to(req)
        try:
            composer = Composer(req, rsp)
        except InvalidSpecError as err:
            response.fatal(rsp, str(err))
            return rsp
        composer.compose()
        return rsp
