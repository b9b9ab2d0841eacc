"""Finding a problem by name gives what the full listing gives, but reads other packages'
formats only where they could change the answer."""

from __future__ import annotations

from pathlib import Path

import pytest

import judge.formats.catalog as catalog_module
from judge.formats import ProblemSource
from judge.formats.catalog import Catalog
from judge.formats.suite.format import SuiteFormat


class ToyFormat(SuiteFormat):
    """Another package's format: suites kept in toys/ instead of cases/."""

    name = "toy"

    def sources_in(self, folder: Path) -> list[ProblemSource]:
        return [ProblemSource(path.stem, path, self) for path in sorted((folder / "toys").glob("*.yaml"))]


def folder_with(root: Path, kind: str, *names: str) -> Path:
    (root / kind).mkdir(parents=True)
    for name in names:
        (root / kind / f"{name}.yaml").write_text(f"id: {name}\n")
    return root


@pytest.fixture
def plugins(monkeypatch):
    """Installs ToyFormat as the only other package's format, counting how often it is asked for."""
    asked = []

    def plugin_formats():
        asked.append(1)
        return (ToyFormat(),)
    monkeypatch.setattr(catalog_module, "plugin_formats", plugin_formats)
    return asked


def test_a_name_in_the_first_folder_is_found_without_other_packages_formats(tmp_path, plugins):
    first = folder_with(tmp_path / "first", "cases", "stones", "omok")
    found = Catalog(((first, "here"),)).find("omok")
    assert found.path == first / "cases" / "omok.yaml" and not plugins


def test_another_packages_problem_in_an_earlier_folder_hides_a_later_one(tmp_path, plugins):
    first = folder_with(tmp_path / "first", "toys", "stones")
    second = folder_with(tmp_path / "second", "cases", "stones", "omok")
    problems = Catalog(((first, "here"), (second, "built-in")))
    assert problems.find("stones").format.name == "toy"
    assert problems.find("omok").path == second / "cases" / "omok.yaml"


def test_within_a_folder_the_built_in_formats_come_first(tmp_path, plugins):
    both = folder_with(tmp_path / "both", "cases", "stones")
    folder_with(both, "toys", "stones", "pebbles")
    problems = Catalog(((both, "here"),))
    assert problems.find("stones").format.name == "suite" and not plugins
    assert problems.find("pebbles").format.name == "toy"


def test_finding_by_name_agrees_with_the_listing(tmp_path, plugins):
    first = folder_with(tmp_path / "first", "toys", "stones", "pebbles")
    second = folder_with(tmp_path / "second", "cases", "stones", "omok")
    folder_with(second, "toys", "omok", "gravel")
    problems = Catalog(((first, "here"), (second, "built-in")))
    listed = problems.sources()
    assert sorted(listed) == ["gravel", "omok", "pebbles", "stones"]
    assert {name: where(problems.find(name)) for name in listed} == {name: where(listed[name]) for name in listed}


def where(source: ProblemSource) -> tuple[Path, str]:
    return source.path, source.format.name


def test_an_unknown_name_still_lists_every_problem(tmp_path, plugins):
    first = folder_with(tmp_path / "first", "toys", "pebbles")
    second = folder_with(tmp_path / "second", "cases", "stones")
    with pytest.raises(Exception, match=r"unknown problem 'stone' \(did you mean 'stones'\?\).*pebbles"):
        Catalog(((first, "here"), (second, "built-in"))).find("stone")


def test_a_working_directory_holding_only_another_packages_problems_is_looked_in(tmp_path, plugins, monkeypatch):
    folder_with(tmp_path, "toys", "pebbles")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JUDGE_PROBLEMS", raising=False)
    monkeypatch.delenv("JUDGE_ROOT", raising=False)
    assert catalog_module.find_problem("pebbles").format.name == "toy"
