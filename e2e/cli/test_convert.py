"""`pocket convert`: exact conversions on the command line, with no server and no data directory."""
import os
import subprocess

import pytest
from cli_helpers import BIN, one_line_error



def convert(*args, env=None):
    # HOME and XDG_DATA_HOME point at a folder that cannot be created: convert must not need one.
    merged = {**os.environ, "HOME": "/nonexistent/home", "XDG_DATA_HOME": "/nonexistent/xdg", **(env or {})}
    merged.pop("POCKET_DATA_DIR", None)
    return subprocess.run([BIN, "convert", *args], capture_output=True, text=True, timeout=30, env=merged)


def ok(*args):
    result = convert(*args)
    assert result.returncode == 0, result
    assert result.stderr == "", result.stderr
    return result.stdout


def convert_error(result):
    """A refused conversion: one `pocket: …` line and nothing on stdout."""
    assert result.stdout == "", result.stdout
    return one_line_error(result)


# --------------------------------------------------------------------------- converting


def test_kilobytes_to_megabytes():
    assert ok("12", "KB", "MB") == "12 KB = 0.01171875 MB\n"


def test_negative_value_after_double_dash():
    assert ok("--", "-40", "C", "F") == "-40 °C = -40 °F\n"


def test_negative_value_without_double_dash():
    assert ok("-40", "F", "C") == "-40 °F = -40 °C\n"


def test_plain_prints_only_the_number():
    assert ok("12", "KB", "B", "--plain") == "12288\n"
    assert ok("--plain", "1", "km/h", "m/s") == "0.277777777778\n"


def test_rounded_results_say_so():
    assert ok("1", "km/h", "m/s") == "1 km/h ≈ 0.277777777778 m/s\n"
    assert ok("100", "F", "K") == "100 °F ≈ 310.927777778 K\n"


@pytest.mark.parametrize("args, expected", [
    (["1", "GB", "MB"], "1 GB = 1024 MB"),
    (["1", "GB", "MB", "--convention", "decimal"], "1 GB = 1000 MB"),
    (["1", "GB", "MB", "--convention", "iec"], "1 GB = 1000 MB"),  # under IEC, SI prefixes are decimal
    (["1", "GiB", "MiB", "--convention", "decimal"], "1 GiB = 1024 MiB"),
    (["8", "bit", "B"], "8 bit = 1 B"),
])
def test_data_conventions(args, expected):
    assert ok(*args) == expected + "\n"


@pytest.mark.parametrize("args, expected", [
    (["26.2", "mi", "km"], "26.2 mi = 42.1648128 km"),
    (["1", "lb", "kg"], "1 lb = 0.45359237 kg"),
    (["1", "gal", "L"], "1 gal = 3.785411784 L"),
    (["1", "acre", "m2"], "1 ac = 4046.8564224 m²"),
    (["1", "atm", "Pa"], "1 atm = 101325 Pa"),
    (["1", "kcal", "kJ"], "1 kcal = 4.184 kJ"),
    (["1", "day", "s"], "1 d = 86400 s"),
    (["0.1", "m", "cm"], "0.1 m = 10 cm"),
    (["1e3", "m", "km"], "1000 m = 1 km"),
    (["0", "K", "C"], "0 K = -273.15 °C"),
])
def test_other_categories_are_exact(args, expected):
    assert ok(*args) == expected + "\n"


def test_digits_and_scientific_notation():
    # 13 digits are more than the 12 shown: scientific, and marked as rounded; --digits shows them all.
    assert ok("1", "TB", "bit") == "1 TB ≈ 8.79609302221e+12 bit\n"
    assert ok("1", "TB", "bit", "--digits", "13") == "1 TB = 8796093022208 bit\n"
    assert ok("999999999999999", "TB", "bit", "--digits", "38") == "999999999999999 TB = 8796093022207991203906977792 bit\n"
    assert ok("0.000000001", "s", "ms") == "1e-9 s = 0.000001 ms\n"
    assert ok("1", "km/h", "m/s", "--digits", "3", "--plain") == "0.278\n"


def test_loose_unit_spellings():
    assert ok("1", "kilometre", "miles") == "1 km ≈ 0.621371192237 mi\n"
    assert ok("20", "degC", "°F") == "20 °C = 68 °F\n"


def spelled_for_argument_parser(args):
    """The same command line with its options written --name=value (the default convention added if
    none is given): `pocket convert` reads plain command lines itself, for speed, and leaves this
    spelling to ArgumentParser, so the two readers can be compared."""
    spelled, rest = [], list(args)
    while rest:
        word = rest.pop(0)
        if word == "--":
            spelled += [word] + rest
            break
        if word in ("--convention", "--digits") and rest:
            spelled.append(f"{word}={rest.pop(0)}")
        else:
            spelled.append(word)
    if not any(word.startswith("--convention") for word in spelled):
        spelled.insert(0, "--convention=binary")
    return spelled


@pytest.mark.parametrize("args", [
    ["12", "KB", "MB"],
    ["12", "KB", "MB", "--plain"],
    ["--plain", "5", "km", "mi"],
    ["--", "-40", "C", "F"],
    ["--plain", "--", "-40", "C", "F"],
    ["1", "acre", "m2", "--digits", "5"],
    ["1", "gal", "L", "--digits", "38", "--plain"],
    ["1", "GB", "MB", "--convention", "decimal"],
    ["--convention", "iec", "1", "GB", "MB"],
    ["8", "oz", "mL"],
    ["1", "TB", "bit"],
    ["12", "KB", "--", "MB"],
    ["12", "KB", "MB", "--"],
    ["12", "KB", "kg"],
    ["12", "KB", "furlong"],
    ["12abc", "KB", "MB"],
    ["--", "-300", "C", "F"],
    ["--", "-5", "KB", "MB"],
    ["12", "KB"],
    ["1", "KB", "MB", "GB", "--plain"],
])
def test_both_readers_of_the_command_line_agree(args):
    quick = convert(*args)
    full = convert(*spelled_for_argument_parser(args))
    assert (quick.returncode, quick.stdout, quick.stderr) == (full.returncode, full.stdout, full.stderr)
    assert quick.stdout or quick.stderr


# --------------------------------------------------------------------------- listing


def test_list_everything():
    out = ok("--list")
    headers = [line for line in out.splitlines() if line and not line.startswith(" ")]
    assert headers == ["Data (Binary (1 KB = 1024 B))", "Temperature", "Length", "Mass", "Volume", "Area",
                       "Speed", "Time", "Energy", "Pressure"]
    assert "  KB   Kilobyte  kilobyte  (1 KB = 1024 bytes (binary))" in out


def test_list_one_category():
    out = ok("--list", "temperature")
    assert out.splitlines()[0] == "Temperature"
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["°C", "°F", "K", "°R"]
    assert ok("--list", "Temperature") == out


def test_list_follows_the_convention_and_plain_is_tab_separated():
    out = ok("--list", "data", "--convention", "iec", "--plain")
    assert out.splitlines() == [
        "data\tbit\tbit\tBit", "data\tbyte\tB\tByte", "data\tkibibyte\tKiB\tKibibyte",
        "data\tmebibyte\tMiB\tMebibyte", "data\tgibibyte\tGiB\tGibibyte", "data\ttebibyte\tTiB\tTebibyte",
    ]


def test_help_shows_usage_and_examples():
    result = subprocess.run([BIN, "help", "convert"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0
    for text in ["pocket convert <value> <from-unit> <to-unit>", "pocket convert --list [<category>]",
                 "--convention", "--plain", "--digits", "pocket convert -- -40 C F"]:
        assert text in result.stdout, text


# --------------------------------------------------------------------------- errors


def test_unknown_unit_is_one_line_with_suggestions():
    line = convert_error(convert("12", "KB", "furlong"))
    assert line.startswith("pocket: Unknown unit 'furlong'.")


def test_typo_suggests_the_unit():
    line = convert_error(convert("1", "kilomter", "mi"))
    assert "Unknown unit 'kilomter'" in line and "km" in line


def test_mixed_categories_are_one_line():
    assert convert_error(convert("12", "KB", "kg")) == "pocket: Can't convert Data to Mass"


def test_not_a_number_is_one_line():
    line = convert_error(convert("12abc", "KB", "MB"))
    assert "'12abc' is not a number" in line


def test_negative_where_it_means_nothing():
    assert convert_error(convert("--", "-5", "KB", "MB")) == "pocket: Data can't be negative"


def test_below_absolute_zero():
    assert convert_error(convert("--", "-300", "C", "F")) == "pocket: −300 °C is below absolute zero (−273.15 °C)"


@pytest.mark.parametrize("args, fragment", [
    ([], "Give a value and two units"),
    (["12", "KB"], "Give a value and two units"),
    (["12", "KB", "MB", "GB"], "Give a value and two units"),
    (["12", "KB", "MB", "--convention", "metric"], "Unknown convention 'metric'"),
    (["12", "KB", "MB", "--digits", "0"], "--digits must be between 1 and 38"),
    (["12", "KB", "MB", "--bogus"], "--bogus"),
    (["--list", "colour"], "There is no 'colour' category"),
    (["--list", "data", "length"], "--list takes at most one category"),
])
def test_usage_errors_are_one_line(args, fragment):
    assert fragment in convert_error(convert(*args))
