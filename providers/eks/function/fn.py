"""gRPC entry point: turn one RunFunctionRequest into one RunFunctionResponse."""

import grpc
from crossplane.function import response
from crossplane.function.proto.v1 import run_function_pb2 as fnv1
from crossplane.function.proto.v1 import run_function_pb2_grpc as grpcv1

from function.composer import Composer, InvalidSpecError


class FunctionRunner(grpcv1.FunctionRunnerServiceServicer):
    """Composes an EKSCluster: all the logic lives in Composer, this only wires it to gRPC."""

    async def RunFunction(
        self, req: fnv1.RunFunctionRequest, _context: grpc.aio.ServicerContext | None
    ) -> fnv1.RunFunctionResponse:
        """Compose the XR, or return a fatal result when its spec cannot be composed at all."""
        rsp = response.to(req)
        try:
            composer = Composer(req, rsp)
        except InvalidSpecError as err:
            response.fatal(rsp, str(err))
            return rsp
        composer.compose()
        return rsp
