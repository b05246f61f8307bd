"""The studio's endpoints (workbench/studio/app.py) through Starlette's test client: what they answer, what they
write, and what they refuse (another Host or Origin, a missing token, a path outside the variant's folder).

The browser's side is in tests/test_studio_e2e.py.
"""

from __future__ import annotations

import errno
import io
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from output_helpers import HANG, ROOT
from pypdf import PdfReader
from starlette.testclient import TestClient

from workbench import api
from workbench.errors import display_path
from workbench.play import Question
from workbench.studio import bind
from workbench.studio.app import MAX_BODY, TOKEN_HEADER, Studio, create_app, version_of

HOST = "testserver"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A copy of the base game and its card file, laid out as in the repository."""
    (tmp_path / "variants").mkdir()
    (tmp_path / "cards").mkdir()
    shutil.copy(ROOT / "variants" / "chance-it.yaml", tmp_path / "variants")
    shutil.copy(ROOT / "variants" / "dearer-in.yaml", tmp_path / "variants")
    shutil.copy(ROOT / "cards" / "chance-it-market.yaml", tmp_path / "cards")
    return tmp_path / "variants"


@pytest.fixture
def studio(folder: Path) -> Studio:
    return Studio(folder / "chance-it.yaml", token="secret-token")


@pytest.fixture
def client(studio: Studio) -> TestClient:
    return TestClient(create_app(studio, {HOST}), headers={TOKEN_HEADER: studio.token})


def line_of(text: str, start: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if line.startswith(start))


# --- refusals ----------------------------------------------------------------------------------------------------


def test_every_api_request_needs_the_token(studio: Studio) -> None:
    bare = TestClient(create_app(studio, {HOST}))
    for method, path in [("GET", "/api/variant"), ("POST", "/api/validate"), ("POST", "/api/save"), ("POST", "/api/run")]:
        answer = bare.request(method, path, json={"text": "x", "version": ""})
        assert answer.status_code == 403, path
        assert "token" in answer.json()["error"]
    wrong = bare.get("/api/variant", headers={TOKEN_HEADER: "secret-tokem"})
    assert wrong.status_code == 403


def test_the_page_needs_the_token_in_its_address_and_its_assets_do_not(studio: Studio) -> None:
    bare = TestClient(create_app(studio, {HOST}))
    assert bare.get("/").status_code == 403
    assert bare.get("/?token=nope").status_code == 403
    page = bare.get("/?token=secret-token")
    assert page.status_code == 200 and 'id="editor"' in page.text
    assert bare.get("/static/studio.js").status_code == 200


def test_a_request_from_another_origin_is_refused(client: TestClient, studio: Studio) -> None:
    text, version = studio.read()
    answer = client.post(
        "/api/save", json={"text": "game: chance-it\n", "version": version}, headers={"Origin": "http://evil.example"}
    )
    assert answer.status_code == 403
    assert "http://evil.example" in answer.json()["error"]
    assert studio.path.read_text() == text  # nothing written
    assert client.get("/api/variant", headers={"Origin": f"http://{HOST}"}).status_code == 200  # the page's own


def test_a_request_for_another_host_is_refused(client: TestClient) -> None:
    """DNS rebinding: a page at evil.example whose name now points here still sends Host: evil.example."""
    answer = client.get("/api/variant", headers={"Host": "evil.example:8765"})
    assert answer.status_code == 403
    assert "Host" in answer.json()["error"]


@pytest.mark.parametrize(
    "against", ["../cards/chance-it-market.yaml", "/etc/passwd", "..", "../variants/dearer-in.yaml", "missing.yaml", "", 7]
)
def test_a_path_outside_the_variants_folder_is_refused(client: TestClient, against: Any) -> None:
    answer = client.post("/api/run", json={"kind": "compare", "games": 10, "against": against})
    assert answer.status_code in (400, 404)
    assert "error" in answer.json()


def test_a_link_out_of_the_folder_is_refused(client: TestClient, folder: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.yaml"
    shutil.copy(folder / "dearer-in.yaml", outside)
    (folder / "linked.yaml").symlink_to(outside)
    answer = client.post("/api/run", json={"kind": "compare", "games": 10, "against": "linked.yaml"})
    assert answer.status_code == 404


def test_the_folders_variants_of_the_same_game_are_offered_for_compare(client: TestClient, folder: Path) -> None:
    shutil.copy(ROOT / "variants" / "target-dice.yaml", folder)  # another game: compare would refuse it
    (folder / "notes.yaml").write_text("- not a variant\n")
    assert client.get("/api/variant").json()["files"] == ["chance-it.yaml", "dearer-in.yaml"]


# --- the editor ----------------------------------------------------------------------------------------------------


def test_the_variant_is_served_with_its_version_and_table(client: TestClient, studio: Studio) -> None:
    body = client.get("/api/variant").json()
    assert body["text"] == studio.path.read_text()
    assert body["version"] == version_of(studio.path.read_bytes())
    assert (body["game"], body["title"], body["players"]) == ("chance-it", "Chance It", {"min": 3, "max": 6, "default": 4})
    assert {"random", "heuristic", "search"} <= set(body["bots"])


def test_an_unknown_key_is_located_at_its_line(client: TestClient, studio: Studio) -> None:
    text = studio.path.read_text().replace("dice: {count: 5, sides: 6}", "dice: {count: 5, sides: 6}\ncolour: blue")
    body = client.post("/api/validate", json={"text": text}).json()
    assert body["ok"] is False
    (problem,) = body["problems"]
    assert problem["line"] == line_of(text, "colour:")
    assert problem["here"] is True and problem["key"] == "colour"
    assert "unknown key 'colour'" in problem["message"]
    assert studio.path.read_text() != text  # checking writes nothing


def test_a_valid_edit_gets_the_validate_summary(client: TestClient, studio: Studio) -> None:
    body = client.post("/api/validate", json={"text": studio.path.read_text()}).json()
    assert body["ok"] is True and body["problems"] == []
    assert body["summary"] == [list(line) for line in api.validate(studio.path).summary]


def test_the_preview_follows_the_edited_text(client: TestClient, studio: Studio) -> None:
    text = studio.path.read_text()
    before = client.post("/api/preview", json={"text": text}).json()
    assert before["ok"] is True and "Lucky Find" in before["html"]
    stakes = "4: {out: [4, 2, 1, all_out], in: [1, 2, 3, 3], source: printed}"
    assert stakes in text
    edited = text.replace("name: Chance It (base game)", "name: Chance It (studio check)")
    after = client.post("/api/preview", json={"text": edited}).json()
    assert "Chance It (studio check)" in after["html"] and "Chance It (studio check)" not in before["html"]
    broken = client.post("/api/preview", json={"text": text.replace("sides: 6", "sides: six")}).json()
    assert broken["ok"] is False and broken["problems"][0]["line"] == line_of(text, "dice:")


@pytest.mark.slow
def test_the_pdf_is_the_print_commands(client: TestClient, studio: Studio, tmp_path: Path) -> None:
    answer = client.post("/api/pdf", json={"text": studio.path.read_text()})
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/pdf"
    assert answer.headers["content-disposition"] == 'attachment; filename="chance-it.pdf"'
    printed, _record = api.print_set(studio.path, tmp_path / "set.pdf")
    ours, theirs = PdfReader(io.BytesIO(answer.content)), PdfReader(printed)
    assert len(ours.pages) == len(theirs.pages) > 1
    assert [page.extract_text() for page in ours.pages] == [page.extract_text() for page in theirs.pages]


# --- saving --------------------------------------------------------------------------------------------------------


def test_saving_writes_the_text_as_typed_comments_and_all(client: TestClient, studio: Studio) -> None:
    text, version = studio.read()
    edited = text.replace("start: {coins: 8,", "start: {coins: 9,") + "# a note of the designer's\n"
    answer = client.post("/api/save", json={"text": edited, "version": version})
    assert answer.status_code == 200
    assert studio.path.read_text() == edited
    assert answer.json()["version"] == version_of(edited.encode())
    assert not [p for p in studio.folder.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_saving_over_a_file_changed_on_disk_is_refused_with_a_diff(client: TestClient, studio: Studio) -> None:
    text, version = studio.read()
    theirs = text + "# changed in another editor\n"
    studio.path.write_text(theirs)
    mine = text.replace("start: {coins: 8,", "start: {coins: 9,")
    answer = client.post("/api/save", json={"text": mine, "version": version})
    assert answer.status_code == 409
    body = answer.json()
    assert body["conflict"] is True and body["disk"] == theirs and body["version"] == version_of(theirs.encode())
    assert "-# changed in another editor\n" in body["diff"] and "+start: {coins: 9," in body["diff"]
    assert studio.path.read_text() == theirs  # untouched
    again = client.post("/api/save", json={"text": mine, "version": body["version"]})  # "save mine over it"
    assert again.status_code == 200 and studio.path.read_text() == mine


def test_a_crlf_file_stays_crlf(client: TestClient, studio: Studio) -> None:
    studio.path.write_bytes(studio.path.read_bytes().replace(b"\n", b"\r\n"))
    text, version = studio.read()
    browser = text.replace("\r\n", "\n").replace("start: {coins: 8,", "start: {coins: 9,")
    assert client.post("/api/save", json={"text": browser, "version": version}).status_code == 200
    assert studio.path.read_bytes() == browser.replace("\n", "\r\n").encode()


# --- playing and running -----------------------------------------------------------------------------------------


def first_option(question: Question) -> int:
    return 0


def test_a_game_is_played_to_its_end_through_the_page(client: TestClient, studio: Studio) -> None:
    state = client.post("/api/play", json={"players": 4, "seed": 2, "bots": "heuristic", "seat": 0}).json()
    kinds = set()
    while state["state"] == "asking":
        question = state["question"]
        assert question["seat"] == 0 and question["options"] and question["table"]["headers"][0] == "seat"
        kinds.add(question["kind"])
        state = client.post(f"/api/play/{state['id']}/answer", json={"choice": 0}).json()
    assert state["state"] == "over", state
    expected = api.play(studio.path, 4, 2, bots="heuristic", people={0: first_option})
    result = state["result"]
    assert (result["winners"], result["end_reason"], result["length"]) == (
        expected["winners"],
        expected["end_reason"],
        f"{expected['rounds']} rounds",
    )
    assert state["log"] == [studio_family_line(studio, event) for event in expected["events"]]
    assert {"guide", "market"} <= kinds


def studio_family_line(studio: Studio, event: dict[str, Any]) -> str:
    return api.load_variant(studio.path).family.describe(event)


def test_a_wrong_answer_is_refused_and_the_question_stays(client: TestClient) -> None:
    state = client.post("/api/play", json={"players": 4, "seed": 1, "seat": 0}).json()
    assert state["state"] == "asking"
    for choice in (-1, 3, "1", True):
        answer = client.post(f"/api/play/{state['id']}/answer", json={"choice": choice})
        assert answer.status_code == 400
    assert client.get(f"/api/play/{state['id']}").json()["question"] == state["question"]


def test_a_table_the_variant_cannot_seat_says_why(client: TestClient) -> None:
    state = client.post("/api/play", json={"players": 9, "seed": 1, "seat": 0}).json()
    assert state["state"] == "failed" and "9" in state["message"]
    bots = client.post("/api/play", json={"players": 4, "bots": "grandmaster", "seat": 0}).json()
    assert bots["state"] == "failed" and "unknown bot 'grandmaster'" in bots["message"]


def wait_for(client: TestClient, key: str, seconds: float = 300) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        state: dict[str, Any] = client.get(f"/api/run/{key}").json()
        if state["state"] != "running" or time.monotonic() > deadline:
            return state
        time.sleep(0.1)


def test_a_simulation_runs_with_progress_and_its_report(client: TestClient, studio: Studio) -> None:
    key = client.post("/api/run", json={"kind": "simulate", "games": 300, "players": 4, "seed": 3}).json()["id"]
    state = wait_for(client, key)
    assert state["state"] == "done", state
    assert (state["done"], state["total"], state["label"]) == (300, 300, "4 players")
    report = client.get(f"/api/run/{key}/report")
    assert report.status_code == 200 and "<svg" in report.text
    assert state["lines"][0].startswith("300 games at 4 players in ")


def test_what_a_run_says_after_its_games_is_a_line_not_the_tables_label(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The handover ('the interpreter played all ... games'), said as the games end, replaced the label '4 players'
    (on a machine whose compiled engine was not ready: the test passed or failed by the state of the cache)."""
    handover = "the interpreter played all 10 games: the compiled engine was not ready for them"

    def simulate(path: Any, *, progress: Any, notice: Any, **rest: Any) -> Any:
        notice("the interpreter plays the same games until it is ready")
        progress("4 players", 10)(10)
        notice(handover)
        return SimpleNamespace(runs=[SimpleNamespace(games=10, players=4)], report=lambda: "<svg></svg>")

    monkeypatch.setattr(api, "simulate", simulate)
    key = client.post("/api/run", json={"kind": "simulate", "games": 10, "players": 4, "seed": 3}).json()["id"]
    state = wait_for(client, key)
    assert (state["state"], state["done"], state["label"]) == ("done", 10, "4 players"), state
    assert state["lines"][1:] == ["the interpreter plays the same games until it is ready", handover]


def test_a_comparison_runs_against_a_file_of_the_folder(client: TestClient) -> None:
    key = client.post("/api/run", json={"kind": "compare", "games": 200, "against": "dearer-in.yaml"}).json()["id"]
    state = wait_for(client, key)
    assert state["state"] == "done", state
    assert "<svg" in client.get(f"/api/run/{key}/report").text


def test_a_long_run_can_be_cancelled_and_keeps_what_finished(client: TestClient) -> None:
    key = client.post("/api/run", json={"kind": "simulate", "games": 200_000, "engine": "interpreter"}).json()["id"]
    deadline = time.monotonic() + HANG
    while client.get(f"/api/run/{key}").json()["done"] == 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    busy = client.post("/api/run", json={"kind": "simulate", "games": 10})
    assert busy.status_code == 409  # one run at a time
    client.post(f"/api/run/{key}/cancel")
    state = wait_for(client, key)
    assert state["state"] == "cancelled"
    assert 0 < state["done"] < 200_000
    assert state["message"].startswith("cancelled")


@pytest.mark.parametrize("body", [{"kind": "replay"}, {"games": 0}, {"games": 10**9}, {"games": "many"}])
def test_a_run_the_studio_cannot_make_is_refused(client: TestClient, body: dict[str, Any]) -> None:
    assert client.post("/api/run", json=body).status_code == 400


# --- the command -------------------------------------------------------------------------------------------------


def test_a_port_in_use_is_said_in_one_line(tmp_path: Path) -> None:
    taken = bind("127.0.0.1", 0)
    port = taken.getsockname()[1]
    try:
        ran = subprocess.run(
            [
                sys.executable,
                "-m",
                "workbench",
                "studio",
                str(ROOT / "variants" / "chance-it.yaml"),
                "--port",
                str(port),
                "--no-browser",
            ],
            capture_output=True,
            text=True,
            timeout=HANG,
        )
    finally:
        taken.close()
    assert ran.returncode == 1
    assert ran.stderr.strip() == f"cannot listen at 127.0.0.1:{port}: it is in use (another studio?): try --port {port + 1}"


def test_a_missing_variant_is_refused_before_listening(tmp_path: Path) -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "workbench", "studio", str(tmp_path / "nope.yaml"), "--no-browser", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert ran.returncode == 1
    assert "no such variant file" in ran.stderr


def test_a_game_still_thinking_is_asked_again_until_it_asks(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """An answer waits at most SETTLE_SECONDS for the bots (a long search); the page then asks again by the game's
    id, and gets the next question once it comes."""
    from workbench.studio import sessions

    monkeypatch.setattr(sessions, "SETTLE_SECONDS", 0.0)
    state = client.post("/api/play", json={"players": 4, "seed": 1, "bots": "heuristic", "seat": 0}).json()
    seen = set()
    deadline = time.monotonic() + HANG
    while state["state"] in ("asking", "playing") and time.monotonic() < deadline:
        seen.add(state["state"])
        if state["state"] == "asking":
            state = client.post(f"/api/play/{state['id']}/answer", json={"choice": 0}).json()
        else:
            assert state["question"] is None
            time.sleep(0.01)
            state = client.get(f"/api/play/{state['id']}").json()
    assert state["state"] == "over" and "playing" in seen


# --- what the studio will not do ----------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["extends: /etc/passwd", "extends: ../../outside.yaml", "cards_add: [/etc/passwd]"])
def test_the_editors_text_cannot_read_files_outside_the_studios_folders(
    client: TestClient, studio: Studio, tmp_path: Path, key: str
) -> None:
    """A file named in the editor's text is read only inside the variant's folder and those of its own files (here
    variants/ and cards/): its messages would otherwise show another file's keys."""
    (tmp_path.parent / "outside.yaml").write_text("secret_key: 1\n")
    text = studio.path.read_text().replace("name: Chance It (base game)", f"name: x\n{key}")
    for endpoint in ("/api/validate", "/api/preview"):
        body = client.post(endpoint, json={"text": text}).json()
        assert body["ok"] is False
        messages = " ".join(p["text"] for p in body["problems"])
        assert "not read: only files in" in messages
        assert "root:" not in messages and "secret_key" not in messages
        (problem,) = body["problems"]
        assert problem["here"] and problem["line"] == line_of(text, key.split(":")[0])  # where the file is named


def test_the_variants_own_card_file_in_a_sibling_folder_is_read(client: TestClient, studio: Studio) -> None:
    text = studio.path.read_text()
    assert "../cards/chance-it-market.yaml" in text
    assert client.post("/api/validate", json={"text": text}).json()["ok"] is True


def test_two_saves_of_one_version_cannot_both_win(client: TestClient, studio: Studio) -> None:
    from concurrent.futures import ThreadPoolExecutor

    text, version = studio.read()

    def save(n: int) -> int:
        return client.post("/api/save", json={"text": text + f"# edit {n}\n", "version": version}).status_code

    with ThreadPoolExecutor(8) as pool:
        codes = sorted(pool.map(save, range(8)))
    assert codes == [200] + [409] * 7


def test_a_file_that_is_not_utf8_is_not_edited(client: TestClient, studio: Studio) -> None:
    data = studio.path.read_bytes().replace(b"# Chance It, the base game", b"# Caf\xe9 edition")
    studio.path.write_bytes(data)
    answer = client.get("/api/variant")
    assert answer.status_code == 422 and "is not UTF-8 text" in answer.json()["error"]
    save = client.post("/api/save", json={"text": "game: chance-it\n", "version": version_of(data)})
    assert save.status_code == 422
    assert studio.path.read_bytes() == data


def test_a_read_only_or_hard_linked_file_is_not_saved(client: TestClient, studio: Studio) -> None:
    text, version = studio.read()
    studio.path.chmod(0o444)
    answer = client.post("/api/save", json={"text": text + "# mine\n", "version": version})
    assert answer.status_code == 409 and "read-only" in answer.json()["error"]
    studio.path.chmod(0o644)
    os.link(studio.path, studio.folder / "other-name.yaml")
    answer = client.post("/api/save", json={"text": text + "# mine\n", "version": version})
    assert answer.status_code == 409 and "hard links" in answer.json()["error"]
    assert studio.path.read_text() == text


def test_a_file_gone_from_disk_is_said_and_saving_writes_it_again(client: TestClient, studio: Studio) -> None:
    text, version = studio.read()
    studio.path.unlink()
    answer = client.get("/api/variant")
    assert answer.status_code == 404 and "is no longer on disk" in answer.json()["error"]
    assert client.post("/api/save", json={"text": text, "version": version}).status_code == 200
    assert studio.path.read_text() == text


def test_a_file_replaced_by_a_folder_or_a_pipe_is_refused_at_once(client: TestClient, studio: Studio) -> None:
    text, version = studio.read()
    studio.path.unlink()
    os.mkfifo(studio.path)  # reading it would wait for a writer forever
    for answer in (client.get("/api/variant"), client.post("/api/save", json={"text": text, "version": version})):
        assert answer.status_code == 409 and "is not a regular file now" in answer.json()["error"]
    studio.path.unlink()
    studio.path.mkdir()
    assert client.get("/api/variant").status_code == 409
    studio.path.rmdir()
    studio.path.symlink_to("/etc/passwd")  # a link put in its place is not followed
    answer = client.get("/api/variant")
    assert answer.status_code == 409 and "root:" not in answer.text


def test_deep_or_huge_requests_are_refused(client: TestClient) -> None:
    deep = client.post("/api/validate", content=b"[" * 200_000 + b"]" * 200_000)
    assert deep.status_code == 400
    huge = client.post("/api/validate", content=b" " * (MAX_BODY + 1))
    assert huge.status_code == 413


def test_a_mixed_line_ending_file_keeps_the_browsers_newlines(client: TestClient, studio: Studio) -> None:
    data = studio.path.read_bytes()
    studio.path.write_bytes(data.replace(b"\n", b"\r\n", 3))
    text, version = studio.read()
    browser = text.replace("\r\n", "\n")
    assert client.post("/api/save", json={"text": browser, "version": version}).status_code == 200
    assert studio.path.read_bytes() == browser.encode()


def test_an_answer_to_a_question_already_answered_is_refused(client: TestClient) -> None:
    state = client.post("/api/play", json={"players": 4, "seed": 1, "seat": 0}).json()
    number = state["question"]["number"]
    after = client.post(f"/api/play/{state['id']}/answer", json={"choice": 0, "number": number}).json()
    assert after["state"] in ("asking", "over")
    again = client.post(f"/api/play/{state['id']}/answer", json={"choice": 0, "number": number})  # a second tab's
    assert again.status_code == 400 and "answered already" in again.json()["error"]
    assert client.get(f"/api/play/{state['id']}").json()["question"] == after["question"]


def test_a_studio_on_every_address_answers_any_host_with_its_token(studio: Studio) -> None:
    client = TestClient(create_app(studio, None), headers={TOKEN_HEADER: studio.token})
    assert client.get("/api/variant", headers={"Host": "192.0.2.7:8765"}).status_code == 200
    assert client.get("/api/variant", headers={"Host": "192.0.2.7:8765", "Origin": "http://192.0.2.7:8765"}).status_code == 200
    assert client.get("/api/variant", headers={"Host": "192.0.2.7:8765", "Origin": "http://evil.example"}).status_code == 403
    assert TestClient(create_app(studio, None)).get("/api/variant").status_code == 403


def test_a_file_written_by_another_program_during_a_save_is_kept(
    client: TestClient, studio: Studio, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The version is checked again when the saved text is put in place (after the writing and the fsync): another
    program's write in between makes it a conflict, never a loss, and the text is kept in a new file beside it."""
    from workbench.studio import app

    text, version = studio.read()
    theirs = text + "# written during the save\n"
    real = app.write_atomic

    def slow_disk(path: Path, data: bytes, *, still: str | None = None) -> None:
        path.write_text(theirs)  # another editor, while the new file is being written
        real(path, data, still=still)

    monkeypatch.setattr(app, "write_atomic", slow_disk)
    answer = client.post("/api/save", json={"text": text + "# mine\n", "version": version})
    assert answer.status_code == 409
    assert answer.json()["disk"] == theirs and "-# written during the save" in answer.json()["diff"]
    assert studio.path.read_text() == theirs
    kept = Path(answer.json()["kept"])  # as display_path shows it: relative to the working folder, or whole
    assert kept.name.startswith("chance-it.studio-conflict-") and kept.read_text() == text + "# mine\n"
    left = sorted(p.name for p in studio.folder.iterdir())
    assert left == sorted(["chance-it.yaml", kept.name, "dearer-in.yaml"])  # no temporary file


def test_a_file_larger_than_a_variant_can_be_is_not_opened(client: TestClient, studio: Studio) -> None:
    studio.path.write_bytes(b"# " + b"x" * 6_000_000 + b"\n")
    answer = client.get("/api/variant")
    assert answer.status_code == 413 and "is larger than 5 MB" in answer.json()["error"]


def test_a_save_larger_than_a_variant_can_be_is_not_written(client: TestClient, studio: Studio) -> None:
    """The studio would then refuse to open the file it wrote (a 7 MB save was written, then refused with 413)."""
    before = studio.path.read_text()
    version = client.get("/api/variant").json()["version"]
    answer = client.post("/api/save", json={"text": before + "# " + "x" * 6_000_000 + "\n", "version": version})
    assert answer.status_code == 413 and "is larger than 5 MB" in answer.json()["error"]
    assert studio.path.read_text() == before


def test_a_folder_is_not_opened_as_a_variant(tmp_path: Path) -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "workbench", "studio", str(tmp_path), "--no-browser", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert ran.returncode == 1 and ran.stderr.strip().endswith(": not a variant file (a folder? a pipe?)")


def test_a_playtest_folder_that_cannot_be_made_is_said_not_a_traceback(
    client: TestClient, studio: Studio, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A variant on a read-only disk: the studio says why it cannot start the game, naming the folder."""
    real = Path.mkdir

    def read_only(self: Path, *args: Any, **kwargs: Any) -> None:
        if self == studio.playtests:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))
        real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", read_only)
    answer = client.post("/api/playtest", json={"players": 4, "names": "a,b,c,d"})
    assert answer.status_code == 500
    assert answer.json() == {"error": f"{display_path(studio.playtests)}: Read-only file system"}
    assert not studio.playtests.exists()


def test_a_playtest_with_notes_too_long_to_read_back_is_refused_before_anything_is_written(
    client: TestClient, studio: Studio
) -> None:
    """6 MB of notes were written into a playtest file the studio could then neither list nor resume."""
    state = client.post("/api/playtest", json={"players": 4, "names": "a,b,c,d", "notes": "x" * 200_000}).json()
    assert (state["state"], state["message"]) == ("failed", "notes: at most 100,000 characters (these have 200,000)")
    assert not studio.playtests.exists() or list(studio.playtests.iterdir()) == []
