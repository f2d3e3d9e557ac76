import Experiment
print("actionlab")
