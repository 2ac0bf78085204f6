"""`pocket murals …` against a fixture murals service: sync (full, then incremental), list by
distance, favourites, and one-line failures that keep the saved murals."""
import datetime
import json
import math

import pytest

from fixture_servers import MuralsServer, mural_record
from cli_helpers import one_line_error, run

CENTRE = (53.43825119763536, -3.0416635234189)  # NewBrighton_single_point.gpx




def haversine(a, b):
    radius = 6_371_008.8
    phi1, phi2 = math.radians(a[0]), math.radians(b[0])
    h = math.sin((phi2 - phi1) / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(math.radians(b[1] - a[1]) / 2) ** 2
    return 2 * radius * math.asin(math.sqrt(h))


RECORDS = [
    mural_record(1, "I See The Sea", "53.43881250167621", "-3.0416222190640183", artist="Ben Eine", modified="2022-11-21 12:02:37"),
    mural_record(2, "Eye", "53.4406", "-3.0353", artist="Brez", modified="2022-09-15 10:00:00", images=("eye1.jpg", "eye2.jpg")),
    mural_record(3, "The Mysterines", "53.4370", "-3.0430", artist=None, info=None, modified="2022-10-01 09:30:00"),
]


@pytest.fixture
def service():
    """The murals service (e2e/support's), listing RECORDS and filtering by `lastModified`."""
    fixture = MuralsServer(records=RECORDS).start()
    yield fixture
    fixture.stop()


def sync(data, service, *extra):
    return run("murals", "sync", "--data-dir", str(data), "--url", service.feed_url, *extra)


def test_list_before_any_sync_says_what_to_do(tmp_path):
    result = run("murals", "list", "--data-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "pocket murals sync" in result.stdout


def test_first_sync_then_incremental_with_a_day_of_overlap(tmp_path, service):
    first = sync(tmp_path, service)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == "Synced 3 murals (full fetch): 3 new, 0 updated, 0 hidden, 0 skipped. 3 shown."
    assert service.queries == [{"class": "newbrighton_murals"}]
    assert (tmp_path / "murals.sqlite").exists()

    service.records.append(mural_record(4, "Otto", "53.4390", "-3.0400", artist="Dotmasters", modified="2099-01-01 00:00:00"))
    second = sync(tmp_path, service)
    assert second.returncode == 0, second.stderr
    yesterday = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1)).date().isoformat()
    assert service.queries[-1] == {"class": "newbrighton_murals", "lastModified": yesterday}
    assert second.stdout.strip() == "Synced 1 mural (changes since the last sync): 1 new, 0 updated, 0 hidden, 0 skipped. 4 shown."


def test_list_is_ordered_by_distance_with_unknown_artists_named(tmp_path, service):
    assert sync(tmp_path, service).returncode == 0
    result = run("murals", "list", "--data-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    expected = sorted(RECORDS, key=lambda r: haversine(CENTRE, (float(r["lat"]), float(r["lon"]))))
    assert [line.split()[0] for line in lines] == [r["id"] for r in expected]
    assert "62 m" in lines[0] and "I See The Sea" in lines[0] and "Ben Eine" in lines[0]
    mysterines = next(line for line in lines if "The Mysterines" in line)
    assert mysterines.rstrip().endswith("Unknown artist")

    # From the far end of town the order turns round.
    near_eye = run("murals", "list", "--data-dir", str(tmp_path), "--near", "53.4406,-3.0353")
    assert [line.split()[0] for line in near_eye.stdout.strip().splitlines()][0] == "2"

    as_json = json.loads(run("murals", "list", "--data-dir", str(tmp_path), "--json").stdout)
    assert [m["id"] for m in as_json] == [int(r["id"]) for r in expected]
    assert as_json[0]["metres"] == pytest.approx(haversine(CENTRE, (53.43881250167621, -3.0416222190640183)), abs=0.1)
    eye = next(m for m in as_json if m["id"] == 2)
    assert eye["images"] == [
        "https://cgi.csc.liv.ac.uk/~phil/Teaching/COMP228/nbm_images/eye1.jpg",
        "https://cgi.csc.liv.ac.uk/~phil/Teaching/COMP228/nbm_images/eye2.jpg",
    ]
    assert next(m for m in as_json if m["id"] == 3)["artist"] is None


def test_favourites_are_starred_filtered_and_survive_syncs(tmp_path, service):
    assert sync(tmp_path, service).returncode == 0
    added = run("murals", "favourite", "3", "--data-dir", str(tmp_path))
    assert added.returncode == 0, added.stderr
    assert "The Mysterines" in added.stdout
    lines = run("murals", "list", "--data-dir", str(tmp_path)).stdout.splitlines()
    assert [("★" in line) for line in lines] == [("The Mysterines" in line) for line in lines]
    only = run("murals", "list", "--favourites", "--data-dir", str(tmp_path)).stdout.strip().splitlines()
    assert len(only) == 1 and "The Mysterines" in only[0]

    # A sync that rewrites the mural, and one that fails, keep the favourite.
    service.records[2] = mural_record(3, "The Mysterines", "53.4370", "-3.0430", artist="Unknown", modified="2099-01-01 00:00:00")
    assert sync(tmp_path, service).returncode == 0
    service.status = 500
    assert sync(tmp_path, service).returncode != 0
    listed = json.loads(run("murals", "list", "--favourites", "--json", "--data-dir", str(tmp_path)).stdout)
    assert [(m["id"], m["favourite"], m["artist"]) for m in listed] == [(3, True, "Unknown")]

    removed = run("murals", "unfavourite", "3", "--data-dir", str(tmp_path))
    assert removed.returncode == 0 and "no longer a favourite" in removed.stdout
    assert "No favourites yet" in run("murals", "list", "--favourites", "--data-dir", str(tmp_path)).stdout
    assert "There is no mural with id 42" in one_line_error(run("murals", "favourite", "42", "--data-dir", str(tmp_path)))


@pytest.mark.parametrize("status, body, message", [
    (500, None, "the server answered 500"),
    (200, "<html>Database error</html>", "not valid JSON"),
    (200, '{"something":"else"}', "no “newbrighton_murals” list"),
])
def test_failures_are_one_line_and_keep_the_saved_murals(tmp_path, service, status, body, message):
    assert sync(tmp_path, service).returncode == 0
    before = run("murals", "list", "--data-dir", str(tmp_path), "--json").stdout
    service.status, service.body = status, body
    line = one_line_error(sync(tmp_path, service))
    assert message in line
    assert run("murals", "list", "--data-dir", str(tmp_path), "--json").stdout == before


def test_unreachable_service_is_one_line(tmp_path):
    result = run("murals", "sync", "--data-dir", str(tmp_path), "--url", "http://127.0.0.1:9/data2.php", "--timeout", "1")
    assert "could not be reached" in one_line_error(result)


def test_environment_variable_names_the_service_and_bad_records_are_skipped(tmp_path, service):
    service.records.append(mural_record(9, "Nowhere", "N/A", "-3.04"))
    result = run("murals", "sync", "--data-dir", str(tmp_path), env={"POCKET_MURALS_URL": service.feed_url})
    assert result.returncode == 0, result.stderr
    assert "3 new" in result.stdout and "1 skipped" in result.stdout
    assert "latitude “N/A” is not a number" in result.stderr  # logged as a warning
    assert len(service.queries) == 1


@pytest.mark.parametrize("args, message", [
    (["sync", "--url", "ftp://example.org/murals"], "invalid --url 'ftp://example.org/murals': use an http or https address"),
    (["list", "--near", "north,west"], "invalid --near"),
    (["list", "--near", "95,0"], "invalid --near"),
    (["favourite", "seven"], "seven"),
])
def test_bad_arguments_are_one_line(tmp_path, args, message):
    assert message in one_line_error(run("murals", *args, "--data-dir", str(tmp_path)))
