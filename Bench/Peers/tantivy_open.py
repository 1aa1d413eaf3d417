#!/usr/bin/env python3
"""Tantivy opening a stored index and answering one query, as `trawl catalog search` does per
process: the peer of the `catalog.process` figures of trawl-bench's catalog group.

Usage: tantivy_open.py INDEX_DIR QUERIES.json
  QUERIES.json: a JSON list of query texts (every word must match, the last as a prefix, typo
  tolerance as ../shared/tools/catalog-peers/bench_tantivy.py queries: 1 edit from 5 letters, 2
  from 9). For each query, the index is opened afresh (Index.open, reload, searcher), the query
  answered (top 50 ids read, the section facet counted, the total counted), and the time of all
  of it taken. Prints JSON: {"ms": [...], "counts": {query: total}, "version": ...}.
"""
import json, sys, time
import tantivy
from tantivy import Occur, Query

TITLE_BOOST = 3.0
TOPK = 50


def typo_distance(n):
    return 2 if n >= 9 else (1 if n >= 5 else 0)


def answer(path, text):
    index = tantivy.Index.open(path)
    index.reload()
    searcher = index.searcher()
    schema = index.schema
    words = text.split()
    if not words:
        return 0

    def field_clauses(word, prefix):
        d = typo_distance(len(word))
        clauses = []
        for field, boost in (('title', TITLE_BOOST), ('body', 1.0)):
            sub = [Query.term_query(schema, field, word)]
            if prefix or d:
                sub.append(Query.fuzzy_term_query(schema, field, word, distance=d, prefix=prefix))
            for q in sub:
                clauses.append((Occur.Should, Query.boost_query(q, boost) if boost != 1.0 else q))
        return Query.boolean_query(clauses)

    query = Query.boolean_query([(Occur.Must, field_clauses(w, i == len(words) - 1)) for i, w in enumerate(words)])
    result = searcher.search(query, TOPK, count=True)
    _ = [searcher.doc(address)['id'][0] for _, address in result.hits]
    _ = searcher.aggregate(query, {'section': {'terms': {'field': 'section', 'size': 1000}}})
    return result.count


def main():
    path, queries = sys.argv[1], json.load(open(sys.argv[2]))
    answer(path, queries[0])  # warm-up: the page cache and the library's first use
    times, counts = [], {}
    for text in queries:
        start = time.perf_counter()
        counts[text] = answer(path, text.lower())
        times.append((time.perf_counter() - start) * 1000)
    print(json.dumps({'ms': times, 'counts': counts, 'version': getattr(tantivy, '__version__', None)}))


if __name__ == '__main__':
    main()
