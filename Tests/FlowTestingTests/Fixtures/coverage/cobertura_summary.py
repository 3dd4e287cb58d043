"""cobertura.xml as its consumers read it: CoverageReportsTests runs this.

Usage: cobertura_summary.py COBERTURA-XML DTD. Validates the file against the DTD with lxml, then
reads it with PyPI's pycobertura and prints each file's hit and missed lines and the total rate.
"""
import sys

from lxml import etree
from pycobertura import Cobertura

report, dtd = sys.argv[1], sys.argv[2]
with open(dtd, "rb") as handle:
    checker = etree.DTD(handle)
if not checker.validate(etree.parse(report)):
    print("invalid:", checker.error_log.filter_from_errors())
    sys.exit(1)
coverage = Cobertura(report)
for name in coverage.files():
    hit = coverage.hit_statements(name)
    missed = coverage.missed_statements(name)
    print(f"{name}\thit {hit}\tmissed {missed}\trate {coverage.line_rate(name)}")
print(f"total\t{coverage.total_statements()}\t{coverage.total_misses()}\t{coverage.line_rate()}")
