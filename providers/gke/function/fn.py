"""gRPC servicer: turns one RunFunctionRequest into one RunFunctionResponse."""

import grpc
from crossplane.function import response
from crossplane.function.proto.v1 import run_function_pb2 as fnv1
from crossplane.function.proto.v1 import run_function_pb2_grpc as grpcv1

from function.composer import Composer, InvalidSpecError


class FunctionRunner(grpcv1.FunctionRunnerServiceServicer):
    """Runs the GKE composer for every reconcile of a GKECluster."""

    async def RunFunction(
        self, req: fnv1.RunFunctionRequest, _context: grpc.aio.ServicerContext | None
    ) -> fnv1.RunFunctionResponse:
        """Compose the desired state, or fail fatally when the XR cannot be composed."""
        rsp = response.to(req)
        try:
            composer = Composer(req, rsp)
        except InvalidSpecError as err:
            response.fatal(rsp, str(err))
            return rsp
        composer.compose()
        return rsp
