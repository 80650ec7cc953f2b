"""Command line entry point: serves the AKS composition function over gRPC."""

import click
from crossplane.function import cli

from function import fn


@click.command()
@cli.standard_options
def main(**kwargs) -> None:
    """Serve FunctionRunner with the SDK's standard flags (--address, --insecure, ...)."""
    cli.run(fn.FunctionRunner(), **kwargs)


if __name__ == "__main__":
    main()
