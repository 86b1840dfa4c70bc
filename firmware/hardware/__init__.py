"""Hardware seams of the referee: buttons, the LED strip and the buzzer.

Each has a real backend (gpiozero pins, the Adafruit NeoPixel SPI driver) and a
simulated one; the program picks them once at start-up from the config and
passes them in. On a Pi a missing driver is a loud error, never a silent
switch to the simulation.
"""
