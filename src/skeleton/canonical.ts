import { Document, isScalar, visit } from 'yaml';
import type { Skeleton } from './types.js';

const FLOW_MAP_MAX_ENTRIES = 4;

/**
 * The skeleton as canonical YAML: the field order the skeleton is built in, short scalar lists and
 * small scalar maps on one line, no line wrapping. Same skeleton, same bytes.
 */
export function toCanonicalYaml(skeleton: Skeleton): string {
  const document = new Document(skeleton);
  visit(document, {
    Seq(_key, node) {
      if (node.items.every((item) => isScalar(item))) node.flow = true;
    },
    Map(_key, node) {
      if (node.items.length <= FLOW_MAP_MAX_ENTRIES && node.items.every((pair) => isScalar(pair.value))) node.flow = true;
    },
  });
  return document.toString({ lineWidth: 0, flowCollectionPadding: false });
}


