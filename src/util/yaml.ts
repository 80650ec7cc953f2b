import type { ToStringOptions } from 'yaml';
import { yamlLibrary } from './yamlLibrary.js';

/** The largest map of scalars written on one line. */
export const FLOW_MAP_MAX_ENTRIES = 4;
/** No line wrapping, no padding inside flow collections. */
export const YAML_OPTIONS: ToStringOptions = { lineWidth: 0, flowCollectionPadding: false };

/** The reference writer: the yaml library's Document with the canonical flow choices. */
export function viaDocument(value: unknown): string {
  const { Document, isScalar, visit } = yamlLibrary();
  const document = new Document(value);
  visit(document, {
    Seq(_key, node) {
      if (node.items.every((item) => isScalar(item))) node.flow = true;
    },
    Map(_key, node) {
      if (node.items.length <= FLOW_MAP_MAX_ENTRIES && node.items.every((pair) => isScalar(pair.value))) node.flow = true;
    },
  });
  return document.toString(YAML_OPTIONS);
}
