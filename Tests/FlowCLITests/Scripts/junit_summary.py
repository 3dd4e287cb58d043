"""Reads a JUnit XML report with junitparser (a real JUnit consumer) and prints one line per
test case, "RESULT<TAB>classname<TAB>name", RESULT being passed, failure, error or skipped,
then "total<TAB>tests<TAB>failures<TAB>errors<TAB>skipped" from the suite's counts."""
import sys

from junitparser import Error, Failure, JUnitXml, Skipped

xml = JUnitXml.fromfile(sys.argv[1])
for suite in xml:
    for case in suite:
        kinds = [type(result) for result in case.result]
        result = "failure" if Failure in kinds else "error" if Error in kinds else "skipped" if Skipped in kinds else "passed"
        print(f"{result}\t{case.classname}\t{case.name}")
    print(f"total\t{suite.tests}\t{suite.failures}\t{suite.errors}\t{suite.skipped}")
