"""The judge's words (judge/model/vocabulary.py): what loads is a member of its enum, and what is
written (JSON, YAML, f-strings, the results store) is the word's text."""

import json
import sqlite3

import yaml

from judge.formats.catalog import load_problem
from judge.sandbox import TIERS, sandbox_tier
from judge.model.vocabulary import SandboxTier, TaskStyle, Visibility

from conftest import ROOT


def test_a_loaded_suite_speaks_in_the_vocabulary():
    stones, footholds = load_problem("stones", ROOT), load_problem("footholds", ROOT)
    assert stones.io is TaskStyle.STDIO and footholds.io is TaskStyle.FUNCTION
    visibilities = {case.visibility for case in stones.cases}
    assert visibilities == {Visibility.SAMPLE, Visibility.HIDDEN}
    assert all(isinstance(case.visibility, Visibility) for case in stones.cases)


def test_the_sandbox_tier_is_one_of_the_tiers_strongest_first():
    assert TIERS == (SandboxTier.ROOT, SandboxTier.BWRAP, SandboxTier.UNSHARE, SandboxTier.NONE)
    assert sandbox_tier() in TIERS


def test_each_word_is_written_as_its_text():
    words = [TaskStyle.FUNCTION, Visibility.SAMPLE, SandboxTier.BWRAP]
    assert json.loads(json.dumps(words)) == ["function", "sample", "bwrap"]
    assert [f"{word}" for word in words] == [str(word) for word in words] == ["function", "sample", "bwrap"]
    assert yaml.safe_load(yaml.safe_dump([word.value for word in words])) == ["function", "sample", "bwrap"]
    with sqlite3.connect(":memory:") as store:
        store.execute("CREATE TABLE t (word TEXT)")
        store.executemany("INSERT INTO t VALUES (?)", [(word,) for word in words])
        assert [row[0] for row in store.execute("SELECT word FROM t")] == ["function", "sample", "bwrap"]
    assert Visibility("hidden") is Visibility.HIDDEN and Visibility.names() == ("sample", "hidden")
