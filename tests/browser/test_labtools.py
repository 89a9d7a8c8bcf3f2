"""The browser tests' checker on made-up pages: it must catch what it is there to catch.

No browser needed: these run everywhere, also where the browser tests skip.
"""
import nbformat

import labtools


def code_cell(source, outputs=(), tags=None, count=1):
    cell = nbformat.v4.new_code_cell(source, outputs=list(outputs), execution_count=count)
    if tags:
        cell.metadata["tags"] = tags
    return cell


def picture_html(n=1):
    return nbformat.v4.new_output("display_data", data={
        "text/html": "<div>" + '<img src="data:image/svg+xml;base64,AAAA">' * n + "</div>",
        "text/plain": "backward graph of y"})


def png():
    return nbformat.v4.new_output("display_data",
                                  data={"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"})


def stream(text, name="stdout"):
    return nbformat.v4.new_output("stream", name=name, text=text)


def shipped(tmp_path, cells):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# title")] + cells
    path = tmp_path / "01_demo.ipynb"
    nbformat.write(nb, path)
    return labtools.expected_cells(path)


def page_cell(index, outputs=(), rendered=(), count=1, images=0):
    """What READ_CELLS_JS reports for one code cell."""
    return {"index": index, "type": "code", "executionCount": count, "outputs": list(outputs),
            "rendered": [{"mime": m, "text": t} for m, t in rendered], "images": images}


def error(ename="RuntimeError", evalue="boom"):
    return {"type": "error", "mimes": [], "name": None, "ename": ename, "evalue": evalue}


def ok_picture():
    return {"natural": 300, "naturalHeight": 200, "visible": True, "src": "data:image/svg+xml;base64,"}


def test_expectations_come_from_the_stored_outputs_and_markers(tmp_path):
    expected = shipped(tmp_path, [
        code_cell("viz.draw(y)", [picture_html()]),
        code_cell("trace", [picture_html(3)]),
        code_cell("plt.plot(x); plt.show()", [png()]),
        code_cell("# NBVAL_RAISES_EXCEPTION\ny.backward()", tags=["raises-exception"]),
        code_cell("# NBVAL_RAISES_EXCEPTION\ny.backward()"),
        code_cell("print(y.grad_fn)", [stream("<AddBackward0 object at 0x7f00aa>\n")]),
        code_cell("svg", [nbformat.v4.new_output("display_data", data={"image/svg+xml": "<svg/>"})]),
    ])
    assert [expected[i].pictures for i in (1, 2, 3)] == [1, 3, 1]
    assert expected[4].raises and expected[4].tagged_raises
    assert expected[5].raises and not expected[5].tagged_raises
    assert expected[6].reprs_allowed == {"AddBackward0"}
    assert expected[7].svg_only == 1


def test_a_clean_page_has_no_problems(tmp_path):
    expected = shipped(tmp_path, [
        code_cell("viz.draw(y)", [picture_html()]),
        code_cell("# NBVAL_RAISES_EXCEPTION\n1/0", tags=["raises-exception"]),
        code_cell("print(y.grad_fn)", [stream("<AddBackward0 object at 0x7f00aa>\n")]),
    ])
    cells = [{"index": 0, "type": "markdown"},
             page_cell(1, images=1),
             page_cell(2, [error("ZeroDivisionError")],
                       [("application/vnd.jupyter.stderr", "Traceback ...")]),
             page_cell(3, rendered=[("application/vnd.jupyter.stdout", "<AddBackward0 object at 0x55d1c2>")])]
    assert labtools.problems("01_demo", expected, cells, {1: [ok_picture()]}) == []


def test_each_kind_of_problem_is_named_with_its_cell(tmp_path):
    expected = shipped(tmp_path, [
        code_cell("viz.draw(y)", [picture_html()]),                  # 1: picture missing
        code_cell("plt.plot(x)", [png()]),                            # 2: picture broken
        code_cell("x.grad.backward()"),                               # 3: unexpected error
        code_cell("fig"),                                             # 4: figure as text
        code_cell("viz.draw(z)"),                                     # 5: viz object as its repr
        code_cell("obj"),                                             # 6: a bare object repr
        code_cell("# NBVAL_RAISES_EXCEPTION\nok()"),                  # 7: marked, raised nothing
    ])
    cells = [{"index": 0, "type": "markdown"},
             page_cell(1, rendered=[("text/plain", "backward graph of y")]),
             page_cell(2, images=1),
             page_cell(3, [error("RuntimeError", "element 0 of tensors does not require grad")]),
             page_cell(4, rendered=[("text/plain", "<Figure size 640x480 with 1 Axes>")]),
             page_cell(5, rendered=[("text/plain",
                                     "<mini_autograd.viz.picture.GraphPicture object at 0x7f1>")]),
             page_cell(6, rendered=[("text/plain", "<mini_autograd.nn.Linear object at 0x7f2>")]),
             page_cell(7)]
    broken = dict(ok_picture(), natural=0)
    found = labtools.problems("01_demo", expected, cells, {2: [broken]})
    text = "\n".join(found)
    assert "01_demo cell 1: 1 picture(s) expected" in text
    assert "01_demo cell 2: picture 1 did not load" in text
    assert "01_demo cell 3: error output RuntimeError: element 0" in text
    assert "01_demo cell 4: a matplotlib figure shown as text" in text
    assert "01_demo cell 5: a picture object shown as its repr" in text
    assert "01_demo cell 6: an object shown as its bare repr" in text
    assert "01_demo cell 7: marked NBVAL_RAISES_EXCEPTION but raised nothing" in text


def test_run_all_stopped_by_an_untagged_raising_cell_is_explained(tmp_path):
    expected = shipped(tmp_path, [code_cell("# NBVAL_RAISES_EXCEPTION\n1/0"), code_cell("after = 1")])
    cells = [{"index": 0, "type": "markdown"},
             page_cell(1, [error("ZeroDivisionError")]),
             page_cell(2, count=None)]
    found = labtools.problems("01_demo", expected, cells, {})
    assert len(found) == 1
    assert "cells [2] never ran: Run All stopped at the error of cell 1" in found[0]
    assert "raises-exception" in found[0]
