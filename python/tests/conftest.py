"""pytest configuration: makes tests/_support importable under any import mode."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
