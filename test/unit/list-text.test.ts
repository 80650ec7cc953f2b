/** Editing one top-level YAML list in place: every other byte stays, and results that would not read back are refused. */
import { describe, expect, it } from 'vitest';
import { appendListItem, ListEditError, removeListItem } from '../../src/config/listText.js';

const FILE = '# header comment\nlocked:\n  # about the first\n  - {facet: a, subject: s, reason: "kept as written"}\n  - facet: b\n    subject: s\n    reason: second\n# trailing comment\n';

describe('appendListItem', () => {
  it('adds a block item after the last, leaving the rest byte for byte', () => {
    const after = appendListItem(FILE, 'locked', { facet: 'c', subject: 's', values: { converge: ['x'] }, reason: 'third' });
    expect(after.startsWith(FILE.slice(0, FILE.indexOf('# trailing')))).toBe(true);
    expect(after.endsWith('# trailing comment\n')).toBe(true);
    expect(after).toContain('  - facet: c\n');
  });

  it('turns an empty flow list into a block list, changing only the brackets', () => {
    expect(appendListItem('# c\nlocked: []\n', 'locked', { facet: 'a' })).toBe('# c\nlocked:\n  - facet: a\n');
  });

  it('creates the list in a file that has none', () => {
    expect(appendListItem(undefined, 'locked', { facet: 'a' })).toBe('locked:\n  - facet: a\n');
  });

  it('refuses a file whose top level is not a mapping', () => {
    expect(() => appendListItem('- a\n', 'locked', { facet: 'a' })).toThrow(ListEditError);
  });
});

describe('removeListItem', () => {
  it('removes one block item with its lines and nothing else', () => {
    expect(removeListItem(FILE, 'locked', 1)).toBe('# header comment\nlocked:\n  # about the first\n  - {facet: a, subject: s, reason: "kept as written"}\n# trailing comment\n');
  });

  it('leaves an empty flow list when the last item goes, so the file stays valid', () => {
    expect(removeListItem('locked:\n  - facet: a\n', 'locked', 0)).toBe('locked: []\n');
  });

  it('removes from a flow list', () => {
    expect(removeListItem('locked: [{a: 1}, {a: 2}]  # tail\n', 'locked', 0)).toBe('locked: [{a: 2}]  # tail\n');
    expect(removeListItem('locked: [{a: 1}, {a: 2}]\n', 'locked', 1)).toBe('locked: [{a: 1}]\n');
    expect(removeListItem('locked: [{a: 1}]\n', 'locked', 0)).toBe('locked: []\n');
  });

  it('refuses an index the list does not have', () => {
    expect(() => removeListItem(FILE, 'locked', 5)).toThrow(ListEditError);
  });
});
