"""Every built-in format, language, task type and output format provides what its protocol in
judge/extension_points.py declares, and an output format that does not is refused by name."""

import sys
import types

import pytest
from conftest import ROOT

from judge import extension_points
from judge.formats import builtin_formats
from judge.formats.icpc.loading import load_package
from judge.formats.icpc.tasks import PackageBatch, PackageInteractive, PackageInteractiveMultiPass, PackageMultiPass
from judge.languages import LANGUAGES
from judge.renderers import format_names, load_format
from judge.tasks import TASK_TYPES

PACKAGES = ROOT / "tests" / "packages"


def test_the_built_in_formats_are_problem_formats():
    assert [isinstance(found, extension_points.ProblemFormat) for found in builtin_formats()] == [True, True]


def test_the_built_in_languages_are_languages():
    assert {name: isinstance(language, extension_points.Language) for name, language in LANGUAGES.items()} \
        == dict.fromkeys(LANGUAGES, True)


def test_the_suites_and_the_packages_task_types_are_task_types():
    package = load_package(PACKAGES / "addition", run_generators=False).package
    tasks = [*TASK_TYPES.values()] + [kind(package) for kind in
                                      (PackageBatch, PackageInteractive, PackageMultiPass, PackageInteractiveMultiPass)]
    assert [type(task).__name__ for task in tasks if not isinstance(task, extension_points.TaskType)] == []


@pytest.mark.parametrize("kind", sorted(extension_points.RESULT_FORMATS))
def test_every_output_format_provides_what_its_kind_declares(kind):
    protocols = extension_points.RESULT_FORMATS[kind]
    for name in format_names(kind):
        module = load_format(kind, name)
        assert any(isinstance(module, protocol) for protocol in protocols), (kind, name)


def test_a_grade_format_that_does_not_say_who_reads_it_is_refused_by_name(monkeypatch):
    unsaid = types.ModuleType("judge.renderers.grade.table")
    unsaid.__file__ = "judge/renderers/grade/table.py"
    unsaid.render = lambda report: ""
    unsaid.SHOWS_COUNTEREXAMPLES = False  # but no FOR_STUDENTS
    monkeypatch.setitem(sys.modules, "judge.renderers.grade.table", unsaid)
    with pytest.raises(TypeError, match=r"table\.py does not provide what a grade format provides "
                                        r"\(judge\.extension_points\.GradeReportFormat or "):
        load_format("grade", "table")


def test_the_run_table_streams_its_rows_and_json_does_not():
    assert isinstance(load_format("run", "table"), extension_points.RowsFormat)
    assert not isinstance(load_format("run", "json"), extension_points.RowsFormat)
