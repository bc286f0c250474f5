"""The Debian documentation corpora (mteb_evalrank/data/doc_corpora.py): each reader on a small file in its
package's format keeps the prose sentences and drops code, commands, tables, titles and markup."""

from __future__ import annotations

import gzip

import pytest

from mteb_evalrank.data import doc_corpora
from mteb_evalrank.errors import InputError

RST = """\
Memory management
=================

The kernel keeps a :ref:`page cache <page-cache>` of recently used file data in memory.
It is reclaimed when memory runs low, as described in `the reclaim docs <reclaim.html>`_.

.. note::
   This directive text is not prose of the page body and is dropped.

An example follows::

    echo 3 > /proc/sys/vm/drop_caches
    This indented line is a literal block, not a sentence at all.

Short line.
"""

POD = """\
=head1 DESCRIPTION

Perl's regular expressions match text against a pattern that you write in B<the regex language>.

    my $x = qr/this is verbatim code that looks like a sentence./;

=item This command paragraph is dropped entirely from the corpus.
"""

HTML = """<html><body><p>The planner chooses the cheapest plan that it can find for each query.</p>
<pre><p>Code in a pre block is never part of the corpus text at all.</p></pre>
<table><tr><td><p>Cells of a table are dropped along with the whole table.</p></td></tr></table>
<p>Vacuum reclaims the storage occupied by dead tuples &amp; updates statistics.</p></body></html>"""


def _part(reader, files, **extra):
    return {"name": "toy", "debian_package": "toy-doc", "files": [str(f) for f in files], "reader": reader, **extra}


def test_clean_sentences_keeps_prose_only():
    kept = list(
        doc_corpora.clean_sentences(
            [
                "This sentence is long enough to keep. Too short. "
                "Another proper sentence ends right here! it goes on in lower case, which is no sentence start, like code.",
                "x = f(a, b) + g(c, d) * h(e, f) - i(j, k).",
            ]
        )
    )
    assert kept == [
        "This sentence is long enough to keep.",
        "Another proper sentence ends right here! it goes on in lower case, which is no sentence start, like code.",
    ]


def test_each_reader_keeps_prose_and_drops_markup_code_and_tables(tmp_path):
    src = tmp_path / "_sources"
    (src / "translations").mkdir(parents=True)
    (src / "mm.rst.txt").write_text(RST)
    (src / "translations" / "mm.rst.txt").write_text(RST.replace("kernel", "noyau"))
    rst = list(doc_corpora.read_sentences(_part("sphinx-sources", [src / "**" / "*.txt"], exclude=["/translations/"])))
    assert rst == [
        "The kernel keeps a page cache of recently used file data in memory.",
        "It is reclaimed when memory runs low, as described in the reclaim docs.",
    ]

    (tmp_path / "perlre.pod").write_text(POD)
    assert list(doc_corpora.read_sentences(_part("pod", [tmp_path / "*.pod"]))) == [
        "Perl's regular expressions match text against a pattern that you write in the regex language."
    ]

    (tmp_path / "planner.html").write_text(HTML)
    assert list(doc_corpora.read_sentences(_part("html-paragraphs", [tmp_path / "*.html"]))) == [
        "The planner chooses the cheapest plan that it can find for each query.",
        "Vacuum reclaims the storage occupied by dead tuples & updates statistics.",
    ]

    fortunes = tmp_path / "fortunes"
    fortunes.mkdir()
    (fortunes / "wisdom").write_text(
        "A fool and his money are soon parted, as they say.\n-- Proverb\n%\n"
        "A fool and his money are soon parted, as they say.\n%\nToo short.\n"
    )
    (fortunes / "wisdom.dat").write_bytes(b"\x00\x01binary index")
    assert list(doc_corpora.read_sentences(_part("fortunes", [fortunes]))) == [
        "A fool and his money are soon parted, as they say."
    ]  # each sentence once per part

    dictd = tmp_path / "devil.dict.dz"
    with gzip.open(dictd, "wt") as fh:
        fh.write(
            "CYNIC\n   A blackguard whose faulty vision sees things as they are, not as they\n"
            "   ought to be. See {Scythian}.\n\nSHORT\n   Nothing.\n"
        )
    assert list(doc_corpora.read_sentences(_part("dictd-text", [dictd]))) == [  # the headword opens the entry's text
        "CYNIC A blackguard whose faulty vision sees things as they are, not as they ought to be."
    ]


def test_missing_package_files_and_unknown_readers_fail_with_one_line(tmp_path):
    with pytest.raises(InputError, match=r"no file matches .* \(apt-get install toy-doc\)"):
        list(doc_corpora.read_sentences(_part("pod", [tmp_path / "none" / "*.pod"])))
    with pytest.raises(InputError, match="unknown corpus reader 'latex'"):
        list(doc_corpora.read_sentences(_part("latex", [tmp_path])))
