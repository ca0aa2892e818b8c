"""`simpeval train lens-mini` on a SimpEval_past file with a header and no rows: one line, exit 2."""

import os
import subprocess
import sys


def test_a_header_only_ratings_file_is_one_line(tmp_path):
    (tmp_path / "simpeval").mkdir()
    (tmp_path / "simpeval" / "simpeval_past.csv").write_text(
        "id,original,generation,processed_generation,original_id,system,rating_1,rating_2,rating_3,rating_4,rating_5,"
        "rating_1_z_score,rating_2_z_score,rating_3_z_score,rating_4_z_score,rating_5_z_score\n")
    done = subprocess.run([sys.executable, "-m", "simpeval", "train", "lens-mini", "--data-dir", str(tmp_path),
                           "--datasets", "simpeval-past,simplicity-da", "-o", str(tmp_path / "out")], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 2
    assert done.stderr.strip() == (f"Error: {tmp_path / 'simpeval' / 'simpeval_past.csv'}: no rated outputs in dataset "
                                   '"simpeval-past": replace the file(s) with the released ones')
    assert not (tmp_path / "out").exists()
