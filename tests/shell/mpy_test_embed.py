"""shell.embed under MicroPython: the Embed page's code and address from its choices; a choice that
is not one of the page's own never makes broken code."""

from shell.embed import HEIGHT_MESSAGE, choices, frame_address, frame_code

SITE = "https://parlour.example/games/"


def test_the_address_names_only_what_differs_from_a_plain_visit():
    picked = choices({"game": "esp", "mode": "bots", "theme": "auto"})
    assert frame_address(SITE, picked) == SITE + "?embed=1&game=esp&mode=bots"
    picked = choices({"game": "psi-squad", "mode": "pass", "theme": "dark"})
    assert frame_address(SITE, picked) == SITE + "?embed=1&game=psi-squad&theme=dark"
    picked = choices({"game": "", "mode": "online"})  # the home screen: no mode to set up
    assert frame_address(SITE, picked) == SITE + "?embed=1"


def test_the_code_has_the_frame_and_the_resizer_checking_the_sites_origin():
    code = frame_code(SITE, "https://parlour.example", choices({"game": "telepathic"}))
    assert code.startswith('<iframe src="' + SITE + "?embed=1&amp;game=telepathic&amp;mode=bots")
    assert 'title="Psi Parlour: Telepathic"' in code and "height: 720px" in code
    assert 'event.origin !== "https://parlour.example"' in code and HEIGHT_MESSAGE in code
    fixed = frame_code(SITE, "https://parlour.example", choices({"fit": "false", "width": "480"}))
    assert "<script>" not in fixed and "width: 480px" in fixed


def test_odd_values_fall_back_to_the_pages_own():
    picked = choices(
        {"game": "chess", "mode": "x", "theme": "<b>", "width": "9999", "height": "tall"}
    )
    assert picked["game"] == "esp" and picked["mode"] == "bots" and picked["theme"] == "auto"
    assert picked["width"] == "100%" and picked["height"] == "720"
    assert choices({"height": "5"})["height"] == "320"
    assert choices({"height": "99999"})["height"] == "2000"
    assert '"' not in frame_address(SITE, choices({"game": '"><script>'}))
