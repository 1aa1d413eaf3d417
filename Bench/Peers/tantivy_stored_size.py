#!/usr/bin/env python3
"""The size of a Tantivy index that can show its items as `trawl catalog search` does: the schema
of ../shared/tools/catalog-peers/bench_tantivy.py (id, title and body with term frequencies,
section, priority and tags as fast fields) with every field also stored, so that a hit's title,
body and attributes can be read back, as trawl's stored catalog reads them. The peer of the
`catalog.stored.size.tantivy_stored` and `.tantivy_positions` figures of trawl-bench's catalog group.

With --positions, title and body also keep each word's positions, which Tantivy needs to rank
by proximity (phrase and proximity queries), as trawl ranks from its forward index: the index
that does the whole job trawl's stored catalog does.

Usage: tantivy_stored_size.py [--positions] ITEMS.jsonl INDEX_DIR
  ITEMS.jsonl: trawl's item lines ({"id", "fields": {...}, "attributes": {name: value or [values]}}).
  Builds the index in INDEX_DIR (made afresh) and prints JSON: {"bytes": N, "items": N, "version": ...}.
"""
import json, os, shutil, sys
import tantivy


def main():
    arguments = sys.argv[1:]
    positions = '--positions' in arguments
    items_path, path = [a for a in arguments if a != '--positions']
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    sb = tantivy.SchemaBuilder()
    sb.add_text_field('id', stored=True, tokenizer_name='raw', index_option='basic')
    text_option = 'position' if positions else 'freq'
    sb.add_text_field('title', stored=True, index_option=text_option)
    sb.add_text_field('body', stored=True, index_option=text_option)
    for name in ('section', 'priority', 'tags'):
        sb.add_text_field(name, stored=True, fast=True, tokenizer_name='raw', index_option='basic')
    schema = sb.build()
    index = tantivy.Index(schema, path=path)
    writer = index.writer(heap_size=512 * 1024 * 1024)
    count = 0
    with open(items_path) as lines:
        for line in lines:
            item = json.loads(line)
            doc = tantivy.Document()
            doc.add_text('id', item['id'])
            for name in ('title', 'body'):
                if name in item.get('fields', {}):
                    doc.add_text(name, item['fields'][name])
            for name in ('section', 'priority', 'tags'):
                values = item.get('attributes', {}).get(name, [])
                for value in [values] if isinstance(values, str) else values:
                    doc.add_text(name, value)
            writer.add_document(doc)
            count += 1
    writer.commit()
    writer.wait_merging_threads()
    size = sum(os.path.getsize(os.path.join(root, f)) for root, _, files in os.walk(path) for f in files)
    print(json.dumps({'bytes': size, 'items': count, 'version': getattr(tantivy, '__version__', None)}))


if __name__ == '__main__':
    main()
