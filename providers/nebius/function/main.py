"""Command-line entry point: serves the function over gRPC.

Run it with ``python -m function.main --insecure --address unix:/tmp/nebius.sock``
(or ``--address 127.0.0.1:PORT``); the SDK's standard options cover TLS and logging.
"""

import click
from crossplane.function import cli

from function import fn


@click.command()
@cli.standard_options
def main(**kwargs) -> None:
    """Serve the NebiusCluster composition function until terminated."""
    cli.run(fn.FunctionRunner(), **kwargs)


if __name__ == "__main__":
    main()
