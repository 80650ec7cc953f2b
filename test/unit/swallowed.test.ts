/**
 * The swallowed-fact source fact (src/outline/outline.ts swallowedFacts, queries/python/handler.scm) on
 * small inline sources, with the real grammar: an except that catches everything and drops it around a
 * read of observed state is one; the usual idioms (a narrow except for an absent field, a handler that
 * re-raises or reports, a try that reads nothing observed) are not. And the region probe's request swap.
 */
import { describe, expect, it } from 'vitest';
import type { RunFunctionRequest } from '@crossplane-org/function-sdk-typescript';
import { parserFor } from '../../src/outline/grammar.js';
import { buildOutline } from '../../src/outline/outline.js';
import { swapRegion } from '../../src/pipeline/specProbes.js';

const composer = (body: string) => `from crossplane.function import resource, response
from crossplane.function.proto.v1 import run_function_pb2 as fnv1

class Composer:
    def __init__(self, req: fnv1.RunFunctionRequest, rsp):
        self.rsp = rsp
        self.observed_resources = req.observed.resources

    def _observed(self, key):
        return resource.struct_to_dict(self.observed_resources[key].resource)

    def _spec_region(self):
        return "x"

    def compose_storage_class(self):
${body}
`;

const swallowed = async (body: string) => {
  const { swallowed: found, places } = buildOutline('p', [{ path: 'function/composer.py', text: composer(body) }], await parserFor('.py'));
  return { found: (found ?? []).map(({ line, qualified, reads }) => ({ line, qualified, reads })), places };
};

describe('swallowed-fact: an except that drops every error around an observed read', () => {
  it('finds `except Exception: pass` and a bare `except:` around a helper that reads observed state, at the except', async () => {
    for (const handler of ['except Exception:', 'except:', 'except (KeyError, Exception):', 'except BaseException as err:']) {
      const { found } = await swallowed(`        try:\n            name = self._observed("network")["metadata"]["name"]\n        ${handler}\n            name = None\n        return name`);
      expect(found, handler).toEqual([{ line: 18, qualified: 'Composer.compose_storage_class', reads: ['_observed'] }]);
    }
  });

  it('finds `with suppress(Exception):` around an observed read, at the with, and not a narrow suppress(KeyError)', async () => {
    const broad = await swallowed(`        name = None\n        with contextlib.suppress(Exception):\n            name = self._observed("network")["metadata"]["name"]\n        return name`);
    expect(broad.found).toEqual([{ line: 17, qualified: 'Composer.compose_storage_class', reads: ['_observed'] }]);
    const narrow = await swallowed(`        name = None\n        with suppress(KeyError, TypeError):\n            name = self._observed("network")["metadata"]["name"]\n        return name`);
    expect(narrow.found).toEqual([]);
  });

  it('places every except of a function, for the findings that name a handler', async () => {
    const { places } = await swallowed(`        try:\n            self._observed("network")\n        except KeyError:\n            pass`);
    expect(places.get('handler:Composer.compose_storage_class:18')).toBe('function/composer.py:18');
  });

  it('stays quiet on a narrow except, a handler that re-raises or reports, and a try that reads nothing observed', async () => {
    const quiet = [
      `        try:\n            name = self._observed("network")["metadata"]["name"]\n        except (KeyError, TypeError):\n            name = None\n        return name`,
      `        try:\n            name = self._observed("network")\n        except Exception as err:\n            raise ValueError("bad network") from err\n        return name`,
      `        try:\n            name = self._observed("network")\n        except Exception as err:\n            response.warning(self.rsp, str(err))\n            return None\n        return name`,
      `        try:\n            name = self._spec_region()\n        except Exception:\n            name = None\n        return name`,
    ];
    for (const body of quiet) expect((await swallowed(body)).found, body).toEqual([]);
  });
});

describe('the region probe: the request as if the XR had asked for another region', () => {
  it('swaps the region as a word wherever the request holds it, and nothing that merely contains it', () => {
    const request = {
      observed: {
        composite: { resource: { spec: { region: 'us-west-2', note: 'us-west-21' } } },
        resources: { subnet: { resource: { spec: { forProvider: { availabilityZone: 'us-west-2a', region: 'us-west-2' } } } } },
      },
    } as unknown as RunFunctionRequest;
    expect(swapRegion(request, 'us-west-2', 'drift-probe-region')).toEqual({
      observed: {
        composite: { resource: { spec: { region: 'drift-probe-region', note: 'us-west-21' } } },
        resources: { subnet: { resource: { spec: { forProvider: { availabilityZone: 'drift-probe-regiona', region: 'drift-probe-region' } } } } },
      },
    });
  });
});
