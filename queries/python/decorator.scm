; A decorator naming an SDK helper, with or without a call: `@cli.standard_options`, `@click.command()`.
(decorator . [(identifier) (attribute) (call)] @target) @decorator
